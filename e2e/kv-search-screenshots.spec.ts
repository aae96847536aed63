// The KV Search tab in both themes, with no console errors: an index's definition with a query's count and
// rows, more rows loaded, their export written, a filter the service refuses, an aggregation's buckets and metrics, and the start
// (the database's indexes with their data types and aliases) — to test-results/screenshots, or to docs/screenshots with SCREENSHOTS=1.
import { expect, go } from './fixtures';
import { seedSearchIndex } from './support/kv-api';
import { themedConsoleTest } from './support/screenshots';

themedConsoleTest(
  'KV search screens render cleanly',
  { timeout: 180_000, viewport: { width: 1440, height: 900 } },
  async ({ page, errors, kv, shoot }) => {
    await seedSearchIndex(kv);

    await go(page, '#/kv/search/products');
    const filter = page.getByLabel('Filter (JSON)');
    await filter.fill('{\n  "category": { "$in": ["furniture", "accessories"] },\n  "inStock": true\n}');
    await page.getByLabel('Limit').fill('8');
    await page.getByLabel('Order by').selectOption('price');
    await page.getByRole('group', { name: 'Direction' }).getByRole('button', { name: 'Descending' }).click();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const rows = page.getByTestId('search-row');
    await expect(rows).toHaveCount(8);
    await shoot('kv-search');

    // Chosen fields, the next page loaded, the table scrolled into view.
    await page.getByRole('group', { name: 'Return' }).getByRole('button', { name: 'Chosen fields' }).click();
    await page.getByRole('checkbox', { name: 'name' }).check();
    await page.getByRole('checkbox', { name: 'price' }).check();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(page.getByTestId('search-results').getByRole('columnheader')).toHaveCount(4);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect(rows).toHaveCount(16);
    await page.getByRole('button', { name: 'Load more' }).scrollIntoViewIfNeeded();
    await shoot('kv-search-more');

    // The export of every match, written by main into its exports folder.
    await page.getByRole('button', { name: /^Export \d+ documents$/ }).click();
    await expect(page.getByTestId('search-export-result')).toContainText('Saved');
    await page.getByTestId('search-export-result').scrollIntoViewIfNeeded();
    await shoot('kv-search-export');

    await page.getByRole('group', { name: 'Return' }).getByRole('button', { name: 'All fields' }).click();
    await filter.fill('{\n  "colour": { "$eq": "red" }\n}');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: "unknown field 'colour'" })).toBeVisible();
    await shoot('kv-search-refused');

    // Aggregate mode: buckets with a nested average, the price's stats and percentiles.
    await page.getByRole('group', { name: 'Mode' }).getByRole('button', { name: 'Aggregate' }).click();
    await filter.fill('{\n  "price": { "$lt": 150 }\n}');
    await page
      .getByLabel('Aggregations (JSON)')
      .fill(
        [
          '{',
          '  "by_category": {',
          '    "$terms": { "field": "category", "size": 10 },',
          '    "$aggs": { "avg_price": { "$avg": { "field": "price" } }, "total": { "$sum": { "field": "price" } } }',
          '  },',
          '  "price_stats": { "$stats": { "field": "price" } },',
          '  "price_percentiles": { "$percentiles": { "field": "price", "percents": [50, 95] } }',
          '}',
        ].join('\n'),
      );
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(page.getByTestId('search-bucket')).toHaveCount(3);
    await page.evaluate(() => document.getElementById('kv-search-aggregations-title')?.scrollIntoView());
    await shoot('kv-search-aggregate');

    // The start: the database's indexes with their data types and aliases.
    await kv.command('SEARCH.CREATE', 'books', 'ON', 'JSON', 'PREFIX', 1, 'book:', 'SCHEMA', 'title', 'TEXT');
    await kv.command(
      'SEARCH.CREATE',
      'notes',
      'ON',
      'STRING',
      'PREFIX',
      1,
      'note:',
      'SCHEMA',
      'text',
      'TEXT',
    );
    await kv.command('SEARCH.ALIASADD', 'library', 'books');
    await go(page, '#/kv/search');
    await expect(page.getByTestId('search-index-row')).toHaveCount(3);
    await shoot('kv-search-start');

    // The service's refusal is an answer shown, not a console error.
    expect(errors).toEqual([]);
  },
);
