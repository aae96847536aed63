// JSON documents of the key browser's JSON editor (KV JSON keys, issue 23). JSON.parse would reorder keys
// that look like integers ("10" before "b") and round big numbers (12345678901234567890), so documents are
// read into a tree that keeps both; the editor's paths and commands are built here too, so the command the
// page previews is the one main runs. Pure TS: used by main and the renderer.

export type JsonNode =
  | { kind: 'object'; entries: [string, JsonNode][] }
  | { kind: 'array'; items: JsonNode[] }
  | { kind: 'string'; value: string }
  /** The number's text as written (no rounding). */
  | { kind: 'number'; text: string }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'null' };

export type JsonParseResult = { ok: true; node: JsonNode } | { ok: false; error: string };

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
// A JSON string: raw control characters are not allowed in one (RFC 8259).
// eslint-disable-next-line no-control-regex
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;

/** Parses JSON text into a tree that keeps key order and number text; errors say where. */
export function parseJsonDoc(text: string): JsonParseResult {
  let i = 0;
  const fail = (what: string): never => {
    throw new SyntaxError(`${what} at position ${i}`);
  };
  const space = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  /** Skips space and, when `char` comes next, takes it: whether it did. */
  const take = (char: string): boolean => {
    space();
    if (text[i] !== char) return false;
    i++;
    return true;
  };
  /** After a member or an item: a comma goes on to the next one; `close` ends the object or array. */
  const ended = (close: '}' | ']'): boolean => {
    if (take(',')) return false;
    if (take(close)) return true;
    return fail(`expected "," or "${close}"`);
  };
  const value = (depth: number): JsonNode => {
    if (depth > 128) fail('nested too deeply');
    space();
    const c = text[i];
    if (c === '{') {
      i++;
      const entries: [string, JsonNode][] = [];
      const index = new Map<string, number>();
      if (take('}')) return { kind: 'object', entries };
      for (;;) {
        space();
        if (text[i] !== '"') fail('expected a member name in double quotes');
        const name = string();
        if (!take(':')) fail('expected ":"');
        const node = value(depth + 1);
        // A repeated name keeps its first place and its last value, as the server does.
        const at = index.get(name);
        if (at === undefined) {
          index.set(name, entries.length);
          entries.push([name, node]);
        } else entries[at] = [name, node];
        if (ended('}')) return { kind: 'object', entries };
      }
    }
    if (c === '[') {
      i++;
      const items: JsonNode[] = [];
      if (take(']')) return { kind: 'array', items };
      for (;;) {
        items.push(value(depth + 1));
        if (ended(']')) return { kind: 'array', items };
      }
    }
    if (c === '"') return { kind: 'string', value: string() };
    for (const [word, node] of [
      ['true', { kind: 'boolean', value: true }],
      ['false', { kind: 'boolean', value: false }],
      ['null', { kind: 'null' }],
    ] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return node;
      }
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (m) {
      i += m[0].length;
      return { kind: 'number', text: m[0] };
    }
    return fail(c === undefined ? 'unexpected end' : `unexpected ${JSON.stringify(c)}`);
  };
  const string = (): string => {
    STRING.lastIndex = i;
    const m = STRING.exec(text);
    if (!m) fail('bad string');
    i += m![0].length;
    return JSON.parse(m![0]) as string;
  };
  try {
    const node = value(0);
    space();
    if (i < text.length) fail('unexpected text after the value');
    return { ok: true, node };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

/** Compact JSON text of a tree (strings escaped as JSON.stringify does, numbers as written). */
export function jsonText(node: JsonNode): string {
  return write(node, '', '');
}

/** Indented JSON text of a tree (2 spaces), for reading and editing. */
export function jsonPretty(node: JsonNode): string {
  return write(node, '  ', '');
}

function write(node: JsonNode, indent: string, at: string): string {
  const inner = at + indent;
  const nl = indent ? '\n' : '';
  switch (node.kind) {
    case 'object':
      if (node.entries.length === 0) return '{}';
      return `{${nl}${node.entries
        .map(
          ([name, child]) =>
            `${inner}${JSON.stringify(name)}:${indent ? ' ' : ''}${write(child, indent, inner)}`,
        )
        .join(`,${nl}`)}${nl}${at}}`;
    case 'array':
      if (node.items.length === 0) return '[]';
      return `[${nl}${node.items.map((child) => inner + write(child, indent, inner)).join(`,${nl}`)}${nl}${at}]`;
    case 'string':
      return JSON.stringify(node.value);
    case 'number':
      return node.text;
    case 'boolean':
      return String(node.value);
    case 'null':
      return 'null';
  }
}

/** A step from a node to a child: a member name or an array index. */
export type JsonStep = string | number;

/** The JSONPath of a place: `$`, `.name` for plain names, `["odd name"]` otherwise, `[3]` for indexes. */
export function jsonPathOf(steps: readonly JsonStep[]): string {
  let path = '$';
  for (const step of steps) {
    if (typeof step === 'number') path += `[${step}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(step)) path += `.${step}`;
    else path += `[${JSON.stringify(step)}]`;
  }
  return path;
}

/** The node at `steps`, or undefined. */
export function jsonNodeAt(node: JsonNode, steps: readonly JsonStep[]): JsonNode | undefined {
  let current: JsonNode | undefined = node;
  for (const step of steps) {
    if (current?.kind === 'object') current = current.entries.find(([name]) => name === step)?.[1];
    else if (current?.kind === 'array' && typeof step === 'number') current = current.items[step];
    else return undefined;
  }
  return current;
}

/** What the JSON editor changes: a value at a path (NX: only a new member), a removal, an array append. */
export type JsonEdit =
  | { op: 'json.set'; key: string; path: string; value: string; nx?: boolean }
  | { op: 'json.delete'; key: string; path: string }
  | { op: 'json.append'; key: string; path: string; value: string };

/** The command an edit runs — previewed by the page, sent by main. */
export function jsonEditCommand(edit: JsonEdit): string[] {
  switch (edit.op) {
    case 'json.set':
      return ['JSON.SET', edit.key, edit.path, edit.value, ...(edit.nx ? ['NX'] : [])];
    case 'json.delete':
      return ['JSON.DEL', edit.key, edit.path];
    case 'json.append':
      return ['JSON.ARRAPPEND', edit.key, edit.path, edit.value];
  }
}
