// Test data shared by the composer's exporter tests (headers, curl, …).
import { emptyCallback, emptyComposer, type ComposerModel } from './model';

/**
 * A message to a URL with every option set: forwarded headers, delay, not-before, retries, timeout, a
 * callback with its own settings, a failure callback, dedup id, labels and flow control. Its values survive
 * an export and an import unchanged.
 */
export function everyOption(overrides: Partial<ComposerModel> = {}): ComposerModel {
  return emptyComposer({
    destinationKind: 'url',
    url: 'https://example.com/hook?x=1',
    method: 'PATCH',
    contentType: 'application/json',
    body: '{\n  "order": 42,\n  "note": "it\'s $HOME"\n}',
    headers: [
      { name: 'X-Trace', value: 'a b', enabled: true },
      { name: 'X-Multi', value: '1', enabled: true },
    ],
    delay: '1h30m',
    notBefore: 1_767_230_000,
    retries: '7',
    retryDelay: 'max(1000, pow(2, retried) * 100)',
    timeout: '45s',
    callback: {
      url: 'https://example.com/cb',
      method: 'PUT',
      retries: '1',
      retryDelay: '500',
      timeout: '10s',
      headers: [{ name: 'X-Cb', value: 'yes', enabled: true }],
    },
    failureCallback: { ...emptyCallback(), url: 'https://example.com/fail' },
    dedupMode: 'id',
    dedupId: 'order-42',
    labels: 'billing,eu',
    flowControlKey: 'tenant-1',
    flowControlParallelism: '2',
    flowControlRate: '10',
    flowControlPeriod: '1m',
    ...overrides,
  });
}
