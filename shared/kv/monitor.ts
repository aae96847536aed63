// The text of MONITOR lines, as the KV REST API streams them (`/monitor`):
//   1721284005.242090 [0 0.0.0.0:0] "GET" "k"
// Parsing them, writing arguments the way Redis quotes them (so main can recognise its own commands in
// the stream), and Redis-style glob patterns for the key filter. Pure TS: used by main and the renderer.

export interface ParsedMonitorLine {
  /** Milliseconds since the epoch (the server's timestamp). */
  at: number;
  db: number;
  /** The client descriptor: `0.0.0.0:0` on the hosted service and the local stack (masked), `lua` for scripts. */
  client: string;
  /** The command and its arguments, unquoted (bytes read as UTF-8). */
  args: string[];
  /** The quoted command part exactly as sent (`"GET" "k"`): what own-traffic fingerprints are compared with. */
  command: string;
}

const HEADER = /^(\d+)(?:\.(\d+))? \[(\d+) ([^\]]*)\] /;

/** A MONITOR line, or undefined for anything else (`"OK"`, notices). */
export function parseMonitorLine(line: string): ParsedMonitorLine | undefined {
  const m = HEADER.exec(line);
  if (!m) return undefined;
  const command = line.slice(m[0].length);
  const args = unquoteArgs(command);
  if (!args || args.length === 0) return undefined;
  const fraction = (m[2] ?? '').padEnd(3, '0').slice(0, 3);
  return {
    at: Number(m[1]) * 1000 + Number(fraction),
    db: Number(m[3]),
    client: m[4]!,
    args,
    command,
  };
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const SIMPLE_ESCAPES: Record<number, string> = {
  0x5c: '\\\\',
  0x22: '\\"',
  0x0a: '\\n',
  0x0d: '\\r',
  0x09: '\\t',
  0x07: '\\a',
  0x08: '\\b',
};

/** One argument quoted as Redis's MONITOR does (sdscatrepr over the bytes; text as UTF-8). */
export function quoteArg(arg: string | Uint8Array): string {
  if (typeof arg !== 'string') return quoteBytes(arg);
  let plain = true;
  for (let i = 0; i < arg.length; i++) {
    const c = arg.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) {
      plain = false;
      break;
    }
  }
  if (plain) return `"${arg}"`;
  return quoteBytes(encoder.encode(arg));
}

function quoteBytes(bytes: Uint8Array): string {
  let out = '"';
  for (const byte of bytes) {
    const escape = SIMPLE_ESCAPES[byte];
    if (escape) out += escape;
    else if (byte >= 0x20 && byte <= 0x7e) out += String.fromCharCode(byte);
    else out += `\\x${byte.toString(16).padStart(2, '0')}`;
  }
  return out + '"';
}

/** A command as its MONITOR line shows it after the header: `"SET" "k" "v"`. */
export function quoteCommand(args: readonly (string | number | Uint8Array)[]): string {
  return args.map((arg) => quoteArg(typeof arg === 'number' ? String(arg) : arg)).join(' ');
}

const UNESCAPES: Record<string, number> = {
  '\\': 0x5c,
  '"': 0x22,
  n: 0x0a,
  r: 0x0d,
  t: 0x09,
  a: 0x07,
  b: 0x08,
};

/** The arguments of the quoted command part; undefined when it is not a sequence of quoted strings. */
export function unquoteArgs(text: string): string[] | undefined {
  const args: string[] = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] !== '"') return undefined;
    i++;
    const start = i;
    let simple = true;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\') {
        simple = false;
        i += 2;
      } else i++;
    }
    if (i >= text.length) return undefined;
    if (simple) args.push(text.slice(start, i));
    else args.push(unescape(text.slice(start, i)));
    i++;
    if (i < text.length) {
      if (text[i] !== ' ') return undefined;
      i++;
    }
  }
  return args;
}

function unescape(body: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== '\\') {
      // Outside escapes the text is printable ASCII.
      bytes.push(c.charCodeAt(0) & 0xff);
      continue;
    }
    const next = body[++i];
    if (next === 'x') {
      bytes.push(parseInt(body.slice(i + 1, i + 3), 16) || 0);
      i += 2;
    } else if (next !== undefined) {
      bytes.push(UNESCAPES[next] ?? next.charCodeAt(0));
    }
  }
  return decoder.decode(new Uint8Array(bytes));
}

/**
 * A Redis glob (`*`, `?`, `[abc]`, `[^a-z]`, `\x`) as a RegExp matching the whole string, or undefined
 * when the pattern is empty. The same rules as KEYS/SCAN MATCH, so a filter means what it means in Redis.
 */
export function globToRegExp(pattern: string, ignoreCase = false): RegExp | undefined {
  if (pattern === '') return undefined;
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') source += '[\\s\\S]*';
    else if (c === '?') source += '[\\s\\S]';
    else if (c === '\\' && i + 1 < pattern.length) source += escapeRegExp(pattern[++i]!);
    else if (c === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end === -1) {
        source += '\\[';
        continue;
      }
      let body = pattern.slice(i + 1, end);
      const negate = body.startsWith('^');
      if (negate) body = body.slice(1);
      source += `[${negate ? '^' : ''}${body.replace(/[\\\]]/g, '\\$&')}]`;
      i = end;
    } else source += escapeRegExp(c);
  }
  return new RegExp(`^${source}$`, ignoreCase ? 'i' : '');
}

function escapeRegExp(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
