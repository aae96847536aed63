// Layout defects measured, at the default window size and a narrow one: rows that must stay on one line,
// inputs that must not be cut, and disabled buttons that must not look ready to press.
import { expect, go, test, waitForStack } from './fixtures';

for (const size of [
  { width: 1280, height: 800 },
  { width: 900, height: 700 },
]) {
  test(`layout holds at ${size.width}×${size.height}`, async ({ app }) => {
    await app.setViewportSize(size);
    await waitForStack(app);

    // Forward-header row: checkbox, name, value and delete on one line, the checkbox in a narrow column.
    await go(app, '#/messages/compose');
    const headers = app.getByRole('group', { name: 'Forward headers' });
    await headers.getByRole('button', { name: 'Add header' }).click();
    const name = app.getByLabel('Forward headers: name 1', { exact: true });
    const check = app.getByLabel('Send header 1');
    const remove = app.getByRole('button', { name: 'Remove header 1' });
    const [nameBox, checkBox, removeBox] = await Promise.all(
      [name, check, remove].map((l) => l.boundingBox()),
    );
    expect(Math.abs(removeBox!.y + removeBox!.height / 2 - (nameBox!.y + nameBox!.height / 2))).toBeLessThan(
      6,
    );
    expect(nameBox!.x - (checkBox!.x + checkBox!.width)).toBeLessThan(24);

    // Batch: the count on one line, an item's URL on one line.
    await go(app, '#/messages/batch');
    await app
      .locator('.batch-layout')
      .getByLabel('Destination URL', { exact: true })
      .fill('https://example.com/webhooks/orders-created-with-a-rather-long-path-segment');
    const count = app.getByText(/^1 of at most 100$/);
    const line = await count.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
    expect((await count.boundingBox())!.height).toBeLessThan(line * 1.5);
    const dest = app.locator('.batch-item-dest').first();
    const destLine = await dest.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
    expect((await dest.boundingBox())!.height).toBeLessThan(destLine * 1.5);

    // Filter bar: the date inputs show their whole value.
    await go(app, '#/messages/logs');
    const from = app.getByLabel('From', { exact: true });
    await from.fill('2026-11-24T17:05');
    expect(await from.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);

    // Disabled destructive button: no danger fill.
    const cancel = app.getByRole('button', { name: 'Cancel selected' });
    await expect(cancel).toBeDisabled();
    const [disabledFill, dangerFill] = await cancel.evaluate((el) => {
      const probe = document.createElement('button');
      probe.className = 'btn btn-danger';
      document.body.append(probe);
      const fill = getComputedStyle(probe).backgroundColor;
      probe.remove();
      return [getComputedStyle(el).backgroundColor, fill];
    });
    expect(disabledFill).not.toBe(dangerFill);

    // Every bordered variant, disabled, has the one disabled look (a faded outline button read as clickable).
    const disabledLooks = await app.evaluate(() =>
      ['btn', 'btn btn-primary', 'btn btn-danger'].map((className) => {
        const probe = document.createElement('button');
        probe.className = className;
        probe.disabled = true;
        document.body.append(probe);
        const style = getComputedStyle(probe);
        const look = `${style.backgroundColor} ${style.borderColor} ${style.color} ${style.opacity}`;
        probe.remove();
        return look;
      }),
    );
    expect(new Set(disabledLooks).size).toBe(1);
  });
}
