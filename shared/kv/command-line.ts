// Pure helpers for a redis-cli-style command input (the console's KV command line): splitting a typed
// line into arguments, and the JSON body / path the REST API takes for them. No Node, no DOM.

export type TokenizeResult = { ok: true; args: string[] } | { ok: false; error: string; at: number };

const ESCAPES: Record<string, string> = {
  n: '\n',
  r: '\r',
  t: '\t',
  b: '\b',
  a: '\x07',
  '"': '"',
  '\\': '\\',
};

function isSpace(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r';
}

/**
 * Splits a line the way redis-cli does: arguments separated by whitespace; "double quotes" with
 * \n \r \t \b \a \" \\ and \xHH escapes; 'single quotes' where only \' is special. A closing quote must
 * be followed by whitespace or the end. \xHH yields the code point U+00HH (a string can only carry text;
 * binary values need the path form with a raw body).
 */
export function tokenizeCommandLine(line: string): TokenizeResult {
  const args: string[] = [];
  let i = 0;
  for (;;) {
    while (isSpace(line[i])) i++;
    if (i >= line.length) return { ok: true, args };
    let arg = '';
    const quote = line[i] === '"' || line[i] === "'" ? line[i] : undefined;
    const start = i;
    if (quote) i++;
    for (;;) {
      const c = line[i];
      if (c === undefined) {
        if (quote)
          return { ok: false, error: `unbalanced ${quote === '"' ? 'double' : 'single'} quote`, at: start };
        break;
      }
      if (!quote) {
        if (isSpace(c)) break;
        arg += c;
        i++;
        continue;
      }
      if (c === quote) {
        i++;
        if (i < line.length && !isSpace(line[i])) {
          return { ok: false, error: 'a closing quote must be followed by a space', at: i };
        }
        break;
      }
      if (c === '\\' && quote === '"') {
        const next = line[i + 1];
        const hex = line.slice(i + 2, i + 4);
        if (next === 'x' && /^[0-9a-fA-F]{2}$/.test(hex)) {
          arg += String.fromCharCode(parseInt(hex, 16));
          i += 4;
          continue;
        }
        if (next !== undefined && next in ESCAPES) {
          arg += ESCAPES[next];
          i += 2;
          continue;
        }
      }
      if (c === '\\' && quote === "'" && line[i + 1] === "'") {
        arg += "'";
        i += 2;
        continue;
      }
      arg += c;
      i++;
    }
    args.push(arg);
  }
}

const QUOTED: Record<string, string> = {
  '\\': '\\\\',
  '"': '\\"',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\b': '\\b',
  '\x07': '\\a',
};

/**
 * Arguments as a command line that `tokenizeCommandLine` reads back to the same arguments: plain words as
 * they are, anything else in double quotes with escapes (what the JSON editor previews, ready to paste).
 */
export function formatCommandLine(args: readonly string[]): string {
  return args
    .map((arg) => (/^[^\s"'\\]+$/.test(arg) ? arg : `"${arg.replace(NEEDS_ESCAPE, escapeChar)}"`))
    .join(' ');
}

// Control characters are exactly what has to be escaped here.
// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /[\\"\u0000-\u001f]/g;

function escapeChar(c: string): string {
  return QUOTED[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
}

/** The body of `POST /` for these arguments (the form that needs no URL escaping). */
export function commandBody(args: readonly string[]): string {
  return JSON.stringify(args);
}

/** The path form of a command: each argument percent-encoded as one segment. */
export function commandPath(args: readonly string[]): string {
  return '/' + args.map((a) => encodeURIComponent(a)).join('/');
}

/** One entry of a /pipeline or /multi-exec reply, or the body of a single command's reply. */
export type KvReplyEntry = { result: unknown; error?: undefined } | { error: string; result?: undefined };
