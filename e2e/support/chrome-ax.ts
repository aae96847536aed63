// What Chrome itself tells a screen reader: its accessibility tree, read over the DevTools protocol
// (Playwright's getByRole and ariaSnapshot compute names with their own code, not the browser's).
import type { Page } from '@playwright/test';

/** One node of Chrome's accessibility tree: its role, its name and its states (checked, selected…). */
export interface AxNode {
  role: string;
  name: string;
  /** Chrome's properties of the node by name (e.g. checked: 'true', selected: true). */
  states: Record<string, unknown>;
}

interface CdpAxNode {
  ignored: boolean;
  role?: { value: string };
  name?: { value: string };
  properties?: { name: string; value: { value: unknown } }[];
}

/**
 * The nodes with `role` under the element `selector` names (the first match), as Chrome's accessibility
 * tree has them, in document order. The names are Chrome's, spaces collapsed.
 */
export async function chromeAxNodes(page: Page, selector: string, role: string): Promise<AxNode[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { result } = (await cdp.send('Runtime.evaluate', {
      expression: `document.querySelector(${JSON.stringify(selector)})`,
    })) as { result: { objectId?: string } };
    if (!result.objectId) throw new Error(`no element ${selector}`);
    const { nodes } = (await cdp.send('Accessibility.queryAXTree', {
      objectId: result.objectId,
      role,
    })) as { nodes: CdpAxNode[] };
    return nodes
      .filter((node) => !node.ignored)
      .map((node) => ({
        role: node.role?.value ?? '',
        name: (node.name?.value ?? '').replace(/\s+/g, ' ').trim(),
        states: Object.fromEntries((node.properties ?? []).map((p) => [p.name, p.value.value])),
      }));
  } finally {
    await cdp.detach();
  }
}
