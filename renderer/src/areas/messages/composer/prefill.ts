// Small pure helpers of the composer tab.
import { type ComposerModel, emptyComposer } from '../../../../../shared/composer/model';
import { buildPublishRequest, type BuiltRequest } from '../../../../../shared/composer/request';

/**
 * The message a prefill route (`url|group|queue`, value) starts: a clean form with only that destination.
 * Nothing of the previous draft is carried over (its retries or labels were meant for another
 * destination, maybe another environment). Undefined when the route names no destination.
 */
export function prefilledModel(params: string[]): ComposerModel | undefined {
  const [kind, value] = params;
  if (value === undefined) return undefined;
  if (kind === 'url') return emptyComposer({ destinationKind: 'url', url: value });
  if (kind === 'group') return emptyComposer({ destinationKind: 'group', group: value });
  if (kind === 'queue') return emptyComposer({ destinationKind: 'queue', queue: value });
  return undefined;
}

export function buildOrNull(model: ComposerModel, now: number): BuiltRequest | null {
  try {
    return buildPublishRequest(model, now);
  } catch {
    return null;
  }
}

const FIELD_LABELS: Record<string, string> = {
  url: 'Destination URL',
  group: 'URL group',
  queue: 'Queue',
  method: 'Method',
  contentType: 'Content-Type',
  body: 'Body',
  headers: 'Forward header',
  delay: 'Delay',
  notBefore: 'Earliest delivery',
  retries: 'Retries',
  retryDelay: 'Retry delay',
  timeout: 'Timeout',
  callback: 'Callback',
  failureCallback: 'Failure callback',
  dedupId: 'Deduplication id',
  labels: 'Labels',
  flowControlKey: 'Flow control key',
  flowControlParallelism: 'Parallelism',
  flowControlRate: 'Rate',
  flowControlPeriod: 'Period',
  name: 'name',
};

/** `callback.headers.0.name` → `Callback header 1 name`: field paths of validation messages, for people. */
export function fieldLabel(path: string): string {
  const parts = path.split('.');
  const words: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as string;
    if (/^\d+$/.test(part)) words.push(String(Number(part) + 1));
    else if (part === 'headers' && i > 0) words.push('header');
    else if (part === 'url' && i > 0) words.push('URL');
    else words.push(FIELD_LABELS[part] ?? part);
  }
  // Sentence case: only the first word and acronyms (URL) keep their capital.
  return words
    .join(' ')
    .split(' ')
    .map((word, index) =>
      index === 0 || /^[A-Z]{2,}/.test(word) ? word : word.charAt(0).toLowerCase() + word.slice(1),
    )
    .join(' ');
}
