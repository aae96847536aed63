// Maps a request URL to an endpoint and, for the path form, to Redis arguments.
import { ArgsList } from './commands';
import type { RespArg } from './resp';

export type Route =
  | { kind: 'body' }
  | { kind: 'pipeline' }
  | { kind: 'multi-exec' }
  | { kind: 'monitor' }
  | { kind: 'subscribe'; pattern: false; channel: RespArg }
  | { kind: 'subscribe'; pattern: true; channel: RespArg }
  | { kind: 'path'; args: RespArg[] };

/**
 * Percent-decodes to bytes, so `%FF` is the byte 0xFF and not U+FFFD. Node hands the request target over
 * as latin1 text, so a raw non-ASCII byte is one char ≤ 0xFF and maps back to itself. Returns the string
 * unchanged in the common case of plain ASCII.
 */
export function decodeComponent(text: string, plusIsSpace: boolean): RespArg {
  let plain = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 37 || c > 127 || (plusIsSpace && c === 43)) {
      plain = false;
      break;
    }
  }
  if (plain) return text;
  const bytes = Buffer.from(text, 'latin1');
  const out = Buffer.allocUnsafe(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (c === 37 && i + 2 < bytes.length && isHex(bytes[i + 1]) && isHex(bytes[i + 2])) {
      out[n++] = parseInt(String.fromCharCode(bytes[i + 1]!, bytes[i + 2]!), 16);
      i += 2;
    } else if (plusIsSpace && c === 43) {
      out[n++] = 32;
    } else {
      out[n++] = c;
    }
  }
  return out.subarray(0, n);
}

function isHex(c: number | undefined): boolean {
  return c !== undefined && ((c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102));
}

export interface ParsedUrl {
  path: string;
  /** Query parameters in order, `_token` removed; a key without `=` has value undefined. */
  params: [RespArg, RespArg | undefined][];
  /** The `_token` query parameter, if any. */
  token: string | undefined;
}

export function parseUrl(url: string): ParsedUrl {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const params: [RespArg, RespArg | undefined][] = [];
  let token: string | undefined;
  if (q !== -1) {
    for (const part of url.slice(q + 1).split('&')) {
      if (part === '') continue;
      const eq = part.indexOf('=');
      const key = decodeComponent(eq === -1 ? part : part.slice(0, eq), true);
      const value = eq === -1 ? undefined : decodeComponent(part.slice(eq + 1), true);
      if (key === '_token') {
        token = value === undefined ? '' : value.toString();
        continue;
      }
      params.push([key, value]);
    }
  }
  return { path, params, token };
}

/**
 * Whether a request target may open a stream (MONITOR, SUBSCRIBE, PSUBSCRIBE): those are written through
 * node:http's own response, so the fast path (stack/http/fast-path.ts) leaves them to it. It errs towards
 * true: a target it names goes the ordinary way and is answered the same.
 */
export function mayOpenStream(url: string): boolean {
  const lower = url.slice(0, 12).toLowerCase();
  return lower.startsWith('/monitor') || lower.startsWith('/subscribe/') || lower.startsWith('/psubscribe/');
}

export function route(path: string): Route {
  if (path === '/' || path === '') return { kind: 'body' };
  const lower = path.length <= 12 ? path.toLowerCase() : path.slice(0, 12).toLowerCase();
  if (lower === '/pipeline' && path.length === 9) return { kind: 'pipeline' };
  if (lower === '/multi-exec' && path.length === 11) return { kind: 'multi-exec' };
  if (lower === '/monitor' && path.length === 8) return { kind: 'monitor' };
  // The channel is everything after the prefix: the SDK joins the path with '/' and never encodes it.
  if (lower.startsWith('/subscribe/') && path.length > 11) {
    return { kind: 'subscribe', pattern: false, channel: decodeComponent(path.slice(11), false) };
  }
  if (lower.startsWith('/psubscribe/') && path.length > 12) {
    return { kind: 'subscribe', pattern: true, channel: decodeComponent(path.slice(12), false) };
  }
  return {
    kind: 'path',
    args: path
      .slice(1)
      .split('/')
      .map((s) => decodeComponent(s, false)),
  };
}

/**
 * The command of a path-form request: segments, then the raw body (if any), then query parameters. Its longest
 * argument is noted on the way (CommandList.longestArg): each is a Buffer or, from `decodeComponent`, a plain
 * ASCII string, so its `length` is its byte length.
 */
export function pathCommand(segments: RespArg[], body: Buffer | undefined, url: ParsedUrl): ArgsList {
  const args = segments.slice();
  let longest = 0;
  for (const segment of segments) if (segment.length > longest) longest = segment.length;
  if (body !== undefined && body.length > 0) {
    args.push(body);
    if (body.length > longest) longest = body.length;
  }
  for (const [key, value] of url.params) {
    args.push(key);
    if (key.length > longest) longest = key.length;
    if (value === undefined) continue;
    args.push(value);
    if (value.length > longest) longest = value.length;
  }
  return new ArgsList([args], longest);
}
