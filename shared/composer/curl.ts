// "Copy as curl" and "Import curl": a built request as a shell command, and a pasted curl command (ours, a
// browser's "Copy as cURL", or a hand-written one) back into a composer model. Tokens in an imported
// command are never put into the form; the notes say what was dropped.
import { H, normalizeHeaderName, SERVICE_PREFIX } from '../headers';
import {
  type CallbackModel,
  COMPOSER_METHODS,
  type ComposerMethod,
  type ComposerModel,
  emptyCallback,
  emptyComposer,
  type HeaderRow,
} from './model';
import type { BuiltRequest, HeaderList } from './request';

/** Single-quotes a word for POSIX shells: `it's` → `'it'\''s'`. */
export function shellQuote(text: string): string {
  if (/^[A-Za-z0-9_\-.,:/=@%+]+$/.test(text)) return text;
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * How the Authorization header appears: the token itself (only main ever passes that), an environment
 * variable reference (`$QSTASH_TOKEN`, left to the shell), or a masked text for display.
 */
export type CurlAuth =
  { kind: 'token'; token: string } | { kind: 'env'; variable: string } | { kind: 'none' };

export function toCurl(request: BuiltRequest, url: string, auth: CurlAuth): string {
  const lines = [`curl -X ${request.method} ${shellQuote(url)}`];
  if (auth.kind === 'token') lines.push(`-H ${shellQuote(`Authorization: Bearer ${auth.token}`)}`);
  if (auth.kind === 'env') lines.push(`-H "Authorization: Bearer $${auth.variable}"`);
  for (const [name, value] of request.headers) lines.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  if (request.body !== '') lines.push(`--data-raw ${shellQuote(request.body)}`);
  return lines.join(' \\\n  ');
}

export class CurlParseError extends Error {
  override name = 'CurlParseError';
}

/**
 * The text of a quote whose content starts at `start`, and the index after its closing `close`. At a
 * backslash, `escape` says what it stands for and how many characters it takes (undefined: a plain `\`).
 */
function readQuoted(
  input: string,
  start: number,
  close: string,
  name: string,
  escape: (at: number) => [text: string, length: number] | undefined,
): [text: string, after: number] {
  let text = '';
  let i = start;
  for (;;) {
    if (i >= input.length) throw new CurlParseError(`a ${name} quote is not closed`);
    const c = input[i] as string;
    if (c === close) return [text, i + 1];
    const escaped = c === '\\' ? escape(i) : undefined;
    if (escaped) {
      text += escaped[0];
      i += escaped[1];
    } else {
      text += c;
      i++;
    }
  }
}

const ANSI_ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"' };

/** A backslash escape inside `$'…'` at `at`: `\n`, `\t`, `\uXXXX`, `\xXX`…; an unknown one is its letter. */
function ansiEscape(input: string, at: number): [string, number] {
  const next = input[at + 1] ?? '';
  if (next === 'u' || next === 'x') {
    const hex = /^[0-9a-fA-F]+/.exec(input.slice(at + 2, at + (next === 'u' ? 6 : 4)))?.[0] ?? '';
    return [hex ? String.fromCodePoint(parseInt(hex, 16)) : next, 2 + hex.length];
  }
  return [ANSI_ESCAPES[next] ?? next, 2];
}

/** Splits a shell command into words: quotes, `$'…'`, backslash escapes and line continuations. */
export function shellWords(input: string): string[] {
  const words: string[] = [];
  let current: string | null = null;
  let i = 0;
  const push = (text: string) => {
    current = (current ?? '') + text;
  };
  while (i < input.length) {
    const char = input[i] as string;
    if (char === '\\' && (input[i + 1] === '\n' || (input[i + 1] === '\r' && input[i + 2] === '\n'))) {
      i += input[i + 1] === '\r' ? 3 : 2;
      continue;
    }
    if (/\s/.test(char)) {
      if (current !== null) words.push(current);
      current = null;
      i++;
      continue;
    }
    if (char === "'") {
      const end = input.indexOf("'", i + 1);
      if (end < 0) throw new CurlParseError('a single quote is not closed');
      push(input.slice(i + 1, end));
      i = end + 1;
      continue;
    }
    if (char === '$' && input[i + 1] === "'") {
      const [text, after] = readQuoted(input, i + 2, "'", "$'…'", (at) => ansiEscape(input, at));
      push(text);
      i = after;
      continue;
    }
    if (char === '"') {
      const [text, after] = readQuoted(input, i + 1, '"', 'double', (at) => {
        const next = input[at + 1] ?? '';
        // Inside double quotes a backslash escapes only these; before a newline it joins the lines.
        if (!'"\\$`\n'.includes(next)) return undefined;
        return [next === '\n' ? '' : next, 2];
      });
      push(text);
      i = after;
      continue;
    }
    if (char === '\\') {
      push(input[i + 1] ?? '');
      i += 2;
      continue;
    }
    push(char);
    i++;
  }
  if (current !== null) words.push(current);
  return words;
}

export interface ParsedCurl {
  method: string | undefined;
  url: string;
  headers: HeaderList;
  body: string | undefined;
  /** Options we read but do not use (for the notes). */
  ignored: string[];
}

const FLAGS_WITHOUT_VALUE = new Set([
  '-s',
  '--silent',
  '-S',
  '--show-error',
  '-v',
  '--verbose',
  '-i',
  '--include',
  '-L',
  '--location',
  '-k',
  '--insecure',
  '--compressed',
  '-f',
  '--fail',
  '-g',
  '--globoff',
  '--http1.1',
  '--http2',
]);
const DATA_OPTIONS = new Set([
  '-d',
  '--data',
  '--data-raw',
  '--data-binary',
  '--data-ascii',
  '--data-urlencode',
]);

/** Reads the parts of a curl command that describe the request. */
export function parseCurl(command: string): ParsedCurl {
  const words = shellWords(command.trim());
  if (words[0] !== 'curl') throw new CurlParseError('the command must start with curl');
  const parsed: ParsedCurl = { method: undefined, url: '', headers: [], body: undefined, ignored: [] };
  const data: string[] = [];
  for (let i = 1; i < words.length; i++) {
    const word = words[i] as string;
    const value = (): string => {
      const next = words[++i];
      if (next === undefined) throw new CurlParseError(`${word} needs a value`);
      return next;
    };
    const short = /^(-[XHdAbu])(.+)$/.exec(word);
    if (short) {
      // `-XPOST`, `-H'Name: v'`: the value glued to the option.
      words.splice(i, 1, short[1] as string, short[2] as string);
      i--;
      continue;
    }
    if (word === '-X' || word === '--request') parsed.method = value().toUpperCase();
    else if (word === '-H' || word === '--header') {
      const header = value();
      const colon = header.indexOf(':');
      if (colon <= 0) throw new CurlParseError(`not a header: '${header}'`);
      parsed.headers.push([header.slice(0, colon).trim(), header.slice(colon + 1).trim()]);
    } else if (DATA_OPTIONS.has(word)) data.push(value());
    else if (word === '--json') {
      data.push(value());
      parsed.headers.push(['Content-Type', 'application/json']);
    } else if (word === '--url') parsed.url = value();
    else if (word === '-A' || word === '--user-agent') parsed.headers.push(['User-Agent', value()]);
    else if (word === '-b' || word === '--cookie') parsed.headers.push(['Cookie', value()]);
    else if (word === '-u' || word === '--user') {
      value();
      parsed.ignored.push(`${word} (credentials are not imported)`);
    } else if (FLAGS_WITHOUT_VALUE.has(word)) continue;
    else if (word.startsWith('-')) parsed.ignored.push(word);
    else if (parsed.url === '') parsed.url = word;
    else throw new CurlParseError(`unexpected '${word}': only one URL per command`);
  }
  if (parsed.url === '') throw new CurlParseError('no URL in the command');
  if (data.length > 0) parsed.body = data.join('&');
  return parsed;
}

export interface CurlImport {
  model: ComposerModel;
  /** What the import did not take over, in sentences for the UI. */
  notes: string[];
}

function asMethod(value: string | undefined): ComposerMethod | undefined {
  const upper = value?.toUpperCase();
  return (COMPOSER_METHODS as readonly string[]).includes(upper ?? '')
    ? (upper as ComposerMethod)
    : undefined;
}

function splitFlowControl(value: string, model: ComposerModel): void {
  for (const part of value.split(',')) {
    const [key, text = ''] = part.split('=').map((piece) => piece.trim());
    if (key === 'parallelism') model.flowControlParallelism = text;
    else if (key === 'rate') model.flowControlRate = text;
    else if (key === 'period') model.flowControlPeriod = text;
  }
}

/** Applies one `upstash-callback-…` / `upstash-failure-callback-…` setting; false if not one. */
function applyCallbackSetting(
  callback: CallbackModel,
  rest: string,
  value: string,
  original: string,
): boolean {
  if (rest === '') callback.url = value;
  else if (rest === '-method') callback.method = asMethod(value) ?? '';
  else if (rest === '-retries') callback.retries = value;
  else if (rest === '-retry-delay') callback.retryDelay = value;
  else if (rest === '-timeout') callback.timeout = value;
  else if (rest.startsWith('-forward-')) {
    callback.headers.push({ name: original.slice(original.length - rest.length + 9), value, enabled: true });
  } else return false;
  return true;
}

function applyServiceHeader(model: ComposerModel, name: string, value: string, notes: string[]): boolean {
  const key = normalizeHeaderName(name);
  if (key.startsWith(H.forwardPrefix)) {
    model.headers.push({ name: name.slice(H.forwardPrefix.length), value, enabled: true });
    return true;
  }
  if (key.startsWith(H.failureCallback)) {
    return applyCallbackSetting(model.failureCallback, key.slice(H.failureCallback.length), value, name);
  }
  if (key.startsWith(H.callback)) {
    return applyCallbackSetting(model.callback, key.slice(H.callback.length), value, name);
  }
  switch (key) {
    case H.method:
      model.method = asMethod(value) ?? model.method;
      return true;
    case H.headerForward:
      model.headerForward = value.toLowerCase() === 'true';
      return true;
    case H.delay:
      model.delay = value;
      return true;
    case H.notBefore:
      model.notBefore = /^\d+$/.test(value) ? Number(value) : null;
      return true;
    case H.retries:
      model.retries = value;
      return true;
    case H.retryDelay:
      model.retryDelay = value;
      return true;
    case H.timeout:
      model.timeout = value;
      return true;
    case H.deduplicationId:
      model.dedupMode = 'id';
      model.dedupId = value;
      return true;
    case H.contentBasedDeduplication:
      if (value.toLowerCase() === 'true' && model.dedupMode !== 'id') model.dedupMode = 'content';
      return true;
    case H.label:
      model.labels = model.labels ? `${model.labels},${value}` : value;
      return true;
    case H.flowControlKey:
      model.flowControlKey = value;
      return true;
    case H.flowControlValue:
      splitFlowControl(value, model);
      return true;
    default:
      if (key.startsWith(SERVICE_PREFIX)) {
        notes.push(`${name} is not a composer option and was left out`);
        return true;
      }
      return false;
  }
}

const SERVICE_PATH = /^\/v2\/(?:publish\/(.+)|enqueue\/([^/]+)\/(.+))$/;

/**
 * A curl command → a composer model. A command that calls the service's publish or enqueue API (ours, or
 * a webhook intake URL) is read back option by option; any other command becomes a message to that URL
 * with its method, headers (forwarded) and body.
 */
export function importCurl(command: string): CurlImport {
  const parsed = parseCurl(command);
  const notes = parsed.ignored.map((option) => `${option} was ignored`);
  const model = emptyComposer({
    contentType: '',
    callback: emptyCallback(),
    failureCallback: emptyCallback(),
  });
  model.headers = [];
  // Split at the first '?' only after the destination: a destination URL inside the path has its own '://'.
  const match = /^(https?:\/\/[^/]+)(\/v2\/(?:publish|enqueue)\/.*)$/i.exec(parsed.url);
  const servicePath = match ? SERVICE_PATH.exec((match[2] as string).split('?')[0] as string) : null;
  if (match && servicePath) {
    const full = match[2] as string;
    const queryAt = full.search(/[?&](?:qstash_token|upstash-[a-z-]+)=/i);
    const destinationPart = queryAt >= 0 ? full.slice(0, queryAt) : full;
    const query = queryAt >= 0 ? new URLSearchParams(full.slice(queryAt + 1)) : new URLSearchParams();
    const pathMatch = SERVICE_PATH.exec(destinationPart) as RegExpExecArray;
    const destination = (pathMatch[1] ?? pathMatch[3] ?? '').trim();
    const queue = pathMatch[2];
    let target: 'url' | 'group' | 'llm';
    if (destination === 'api/llm') target = 'llm';
    else if (/^https?:/i.test(destination) || /^https?%3a/i.test(destination)) {
      target = 'url';
      model.url = /%3a/i.test(destination.slice(0, 8)) ? decodeURIComponent(destination) : destination;
    } else {
      target = 'group';
      model.group = destination;
    }
    if (queue !== undefined) {
      model.destinationKind = 'queue';
      model.queue = queue;
      model.queueTarget = target === 'group' ? 'group' : 'url';
    } else model.destinationKind = target;
    const unprefixed: HeaderRow[] = [];
    for (const [name, value] of query) {
      if (name.toLowerCase() === 'qstash_token') notes.push('the token in the URL was not imported');
      else applyServiceHeader(model, name, value, notes);
    }
    for (const [name, value] of parsed.headers) {
      const key = name.toLowerCase();
      if (key === 'authorization')
        notes.push('the Authorization header was not imported (main adds the token)');
      else if (key === 'content-type') model.contentType = value;
      else if (!applyServiceHeader(model, name, value, notes))
        unprefixed.push({ name, value, enabled: true });
    }
    if (unprefixed.length > 0) {
      if (model.headerForward) model.headers.push(...unprefixed);
      else {
        notes.push(
          `${unprefixed.map((row) => row.name).join(', ')} reach the service only: without Upstash-Header-Forward they are not delivered`,
        );
      }
    }
    if (parsed.method !== undefined && parsed.method !== 'POST') {
      notes.push(`the service API is called with POST; ${parsed.method} was ignored`);
    }
  } else {
    model.destinationKind = 'url';
    model.url = parsed.url;
    model.method = asMethod(parsed.method ?? (parsed.body !== undefined ? 'POST' : 'GET')) ?? 'POST';
    if (parsed.method !== undefined && asMethod(parsed.method) === undefined) {
      notes.push(`method ${parsed.method} is not supported; POST is used`);
    }
    for (const [name, value] of parsed.headers) {
      const key = name.toLowerCase();
      if (key === 'content-type') model.contentType = value;
      else if (key === 'authorization') {
        model.headers.push({ name, value, enabled: false });
        notes.push(
          'the Authorization header was imported unticked: tick it to forward it to the destination',
        );
      } else model.headers.push({ name, value, enabled: true });
    }
  }
  model.body = parsed.body ?? '';
  return { model, notes };
}
