// Composer models for the composer's tests.
import { emptyCallback, emptyComposer, type ComposerModel, type HeaderRow } from './model';

/**
 * A message to a URL with every option set, each written as the composer sends it (so a curl export
 * imports back to the same model): a query string, a body that needs shell quoting, two forwarded
 * headers, delay and not-before, retries, both callbacks, deduplication, labels and flow control.
 */
export function everyOption(): ComposerModel {
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
    failureCallback: {
      ...emptyCallback(),
      url: 'https://example.com/fail',
      headers: [{ name: 'X-Fail', value: '1', enabled: true }],
    },
    dedupMode: 'id',
    dedupId: 'order-42',
    labels: 'billing,eu',
    flowControlKey: 'tenant-1',
    flowControlParallelism: '2',
    flowControlRate: '10',
    flowControlPeriod: '1m',
  });
}

/** Header table rows as a user may leave them: a name twice, a row unticked, a row without a name. */
export function headerTable(): HeaderRow[] {
  return [
    { name: 'X-Trace', value: 'abc', enabled: true },
    { name: 'X-Off', value: 'not sent', enabled: false },
    { name: '  ', value: '', enabled: true },
    { name: 'X-Trace', value: 'second', enabled: true },
  ];
}
