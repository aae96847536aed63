// "Copy as TypeScript": the same message as a call of the vendor's `@upstash/qstash` client. Options the
// client has no field for (callback settings, Header-Forward) go into `headers` with their `Upstash-`
// names, which the client passes through unchanged.
import { tryParseDuration } from '../duration';
import { HEADER } from '../headers';
import { parseLabels } from '../messages/names';
import type { CallbackModel, ComposerModel } from './model';
import { isJsonContentType } from './validate';

const INDENT = '  ';

function literal(value: unknown): string {
  return JSON.stringify(value);
}

/** `10s` stays a string the client's Duration type accepts; combinations (`1h30m`) become seconds. */
function duration(value: string, bareNumberAsSeconds = false): string {
  const text = value.trim();
  if (/^\d+[smhd]$/.test(text)) return literal(text);
  const parsed = tryParseDuration(text, { bareNumberAsSeconds });
  return parsed.ok ? String(Math.round(parsed.ms / 1_000)) : literal(text);
}

function callbackExtras(callback: CallbackModel, prefix: string): [string, string][] {
  const out: [string, string][] = [];
  if (callback.url.trim() === '') return out;
  if (callback.method) out.push([`${prefix}-Method`, callback.method]);
  if (callback.retries.trim()) out.push([`${prefix}-Retries`, callback.retries.trim()]);
  if (callback.retryDelay.trim()) out.push([`${prefix}-Retry-Delay`, callback.retryDelay.trim()]);
  if (callback.timeout.trim()) out.push([`${prefix}-Timeout`, callback.timeout.trim()]);
  for (const row of callback.headers) {
    if (row.enabled && row.name.trim()) out.push([`${prefix}-Forward-${row.name.trim()}`, row.value]);
  }
  return out;
}

function bodyExpression(model: ComposerModel): string | undefined {
  if (model.body === '') return undefined;
  if (isJsonContentType(model.contentType)) {
    try {
      const pretty = JSON.stringify(JSON.parse(model.body), null, 2).replace(/\n/g, `\n${INDENT}`);
      return `JSON.stringify(${pretty})`;
    } catch {
      // Not JSON after all: send it as the text it is.
    }
  }
  return literal(model.body);
}

/** A runnable snippet: token from `QSTASH_TOKEN`, base URL of the profile. */
export function toQstashTypeScript(model: ComposerModel, baseUrl: string): string {
  const fields: string[] = [];
  const add = (name: string, value: string) => fields.push(`${INDENT}${name}: ${value},`);
  const target = model.destinationKind === 'queue' ? model.queueTarget : model.destinationKind;
  if (target === 'url') add('url', literal(model.url.trim()));
  else if (target === 'group') add('urlGroup', literal(model.group.trim()));
  else add('api', `{ name: "llm", provider: upstash() }`);
  if (model.destinationKind !== 'llm') add('method', literal(model.method));

  const headers: [string, string][] = [];
  if (model.contentType.trim()) headers.push(['Content-Type', model.contentType.trim()]);
  if (model.headerForward) headers.push([HEADER.headerForward, 'true']);
  for (const row of model.headers)
    if (row.enabled && row.name.trim()) headers.push([row.name.trim(), row.value]);
  headers.push(...callbackExtras(model.callback, HEADER.callback));
  headers.push(...callbackExtras(model.failureCallback, HEADER.failureCallback));
  if (headers.length > 0) {
    const lines = headers.map(([name, value]) => `${INDENT}${INDENT}${literal(name)}: ${literal(value)},`);
    fields.push(`${INDENT}headers: {\n${lines.join('\n')}\n${INDENT}},`);
  }
  const body = bodyExpression(model);
  if (body !== undefined) add('body', body);
  if (model.delay.trim()) add('delay', duration(model.delay));
  if (model.notBefore !== null) add('notBefore', String(model.notBefore));
  if (model.retries.trim()) add('retries', model.retries.trim());
  if (model.retryDelay.trim()) add('retryDelay', literal(model.retryDelay.trim()));
  if (model.timeout.trim()) add('timeout', duration(model.timeout, true));
  if (model.callback.url.trim()) add('callback', literal(model.callback.url.trim()));
  if (model.failureCallback.url.trim()) add('failureCallback', literal(model.failureCallback.url.trim()));
  if (model.dedupMode === 'id' && model.dedupId.trim()) add('deduplicationId', literal(model.dedupId.trim()));
  if (model.dedupMode === 'content') add('contentBasedDeduplication', 'true');
  const labels = parseLabels(model.labels);
  if (labels.length === 1) add('label', literal(labels[0]));
  if (labels.length > 1) add('label', literal(labels));
  if (model.flowControlKey.trim()) {
    const parts = [`key: ${literal(model.flowControlKey.trim())}`];
    if (model.flowControlParallelism.trim())
      parts.push(`parallelism: ${model.flowControlParallelism.trim()}`);
    if (model.flowControlRate.trim()) parts.push(`rate: ${model.flowControlRate.trim()}`);
    if (model.flowControlPeriod.trim()) parts.push(`period: ${duration(model.flowControlPeriod, true)}`);
    add('flowControl', `{ ${parts.join(', ')} }`);
  }

  const imports = model.destinationKind === 'llm' ? 'Client, upstash' : 'Client';
  const call =
    model.destinationKind === 'queue'
      ? `client.queue({ queueName: ${literal(model.queue.trim())} }).enqueue`
      : 'client.publish';
  return [
    `import { ${imports} } from "@upstash/qstash";`,
    '',
    `const client = new Client({`,
    `${INDENT}token: process.env.QSTASH_TOKEN!,`,
    `${INDENT}baseUrl: ${literal(baseUrl.replace(/\/+$/, ''))},`,
    `});`,
    '',
    `const result = await ${call}({`,
    ...fields,
    `});`,
    `console.log(result);`,
    '',
  ].join('\n');
}
