import { describe, expect, it } from 'vitest';
import { BUNDLED_COMMAND_DOCS, bundledDoc, isWriteCommand } from '../../../shared/kv/commands';
import { JSON_COMMANDS, jsonScriptCall } from './commands';

// The console's command table (workbench autocomplete, docs, read-only refusals) and the stack's JSON
// script must agree on which JSON.* commands exist and which of them write.
describe('JSON.* in the console command table', () => {
  it.each(JSON_COMMANDS)('%s has docs and the same read/write class as the stack', (name) => {
    const doc = bundledDoc(name);
    expect(doc?.group).toBe('json');
    const args = name === 'JSON.DEBUG' ? [name, 'MEMORY', 'k', '$'] : [name, 'k', '$', '1', '1', '1'];
    const call = jsonScriptCall(args, name.toLowerCase(), '7.0.15');
    expect(Array.isArray(call)).toBe(true);
    const viaReadOnlyScript = (call as string[])[0] === 'EVALSHA_RO';
    expect(isWriteCommand(args)).toBe(!viaReadOnlyScript);
  });
  it('lists no JSON command the stack does not answer', () => {
    const table = [...BUNDLED_COMMAND_DOCS.values()].filter((d) => d.group === 'json').map((d) => d.name);
    expect(table.sort()).toEqual([...JSON_COMMANDS].sort());
  });
});
