// How a reply is shown: decides a shape from the value (and the command that produced it), so the
// result view renders scalars, tables, maps, JSON and binary each their own way. Pure, unit-tested.
import { decodeUtf8 } from '../../../../../shared/kv/bytes';
import { base64ToBytes } from '../../../../../shared/kv/resp2';

export type Shape =
  | { kind: 'nil' }
  | { kind: 'integer'; value: number }
  | { kind: 'text'; value: string }
  | { kind: 'json'; value: string }
  | { kind: 'binary'; bytes: Uint8Array }
  | { kind: 'list'; items: Shape[] }
  | { kind: 'map'; entries: [Shape, Shape][] }
  | { kind: 'tree'; value: unknown };

/** Commands whose flat array reply is pairs (field, value). */
const PAIR_COMMANDS = new Set(['HGETALL', 'CONFIG', 'XINFO', 'HRANDFIELD', 'MEMORY', 'INFO']);

export function shapeOf(
  value: unknown,
  options: { base64: boolean; args?: readonly string[]; depth?: number },
): Shape {
  const depth = options.depth ?? 0;
  if (value === null || value === undefined) return { kind: 'nil' };
  if (typeof value === 'number') return { kind: 'integer', value };
  if (typeof value === 'string')
    return stringShape(value, options.base64 && !(depth === 0 && value === 'OK'));
  if (Array.isArray(value)) {
    if (depth > 3) return { kind: 'tree', value };
    const inner = { ...options, depth: depth + 1 };
    const command = (options.args?.[0] ?? '').toUpperCase();
    const withScores = options.args?.some((arg) => arg.toUpperCase() === 'WITHSCORES') ?? false;
    const pairs =
      depth === 0 &&
      value.length % 2 === 0 &&
      value.length > 0 &&
      (PAIR_COMMANDS.has(command) || withScores) &&
      value.every((item) => typeof item === 'string' || typeof item === 'number');
    if (pairs) {
      const entries: [Shape, Shape][] = [];
      for (let i = 0; i < value.length; i += 2)
        entries.push([shapeOf(value[i], inner), shapeOf(value[i + 1], inner)]);
      return { kind: 'map', entries };
    }
    return { kind: 'list', items: value.map((item) => shapeOf(item, inner)) };
  }
  return { kind: 'tree', value };
}

function stringShape(value: string, base64: boolean): Shape {
  let text = value;
  if (base64) {
    const bytes = safeBase64(value);
    if (!bytes) return { kind: 'text', value };
    const decoded = decodeUtf8(bytes);
    if (decoded === undefined || hasControlBytes(bytes)) return { kind: 'binary', bytes };
    text = decoded;
  }
  const trimmed = text.trim();
  if (
    (trimmed.startsWith('{') && trimmed.endsWith('}')) ||
    (trimmed.startsWith('[') && trimmed.endsWith(']'))
  ) {
    try {
      return { kind: 'json', value: JSON.stringify(JSON.parse(trimmed), null, 2) };
    } catch {
      // Not JSON after all: plain text.
    }
  }
  return { kind: 'text', value: text };
}

/** Control bytes other than tab, newline and carriage return mark a value as binary. */
function hasControlBytes(bytes: Uint8Array): boolean {
  for (const byte of bytes) if (byte < 0x20 && byte !== 9 && byte !== 10 && byte !== 13) return true;
  return false;
}

function safeBase64(value: string): Uint8Array | undefined {
  try {
    return base64ToBytes(value);
  } catch {
    return undefined;
  }
}
