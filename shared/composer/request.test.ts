import { describe, expect, it } from 'vitest';
import { everyOption, headerTable } from './fixtures';
import { emptyCallback, emptyComposer, type ComposerModel } from './model';
import {
  batchItemOf,
  buildBatchRequest,
  buildPublishRequest,
  ComposerError,
  configHeaders,
  webhookUrl,
} from './request';

const NOW = Date.UTC(2026, 0, 1);

function model(overrides: Partial<ComposerModel>): ComposerModel {
  return emptyComposer({ url: 'https://example.com/hook', ...overrides });
}

describe('configHeaders', () => {
  it('a bare message: Content-Type and method only', () => {
    expect(configHeaders(model({}))).toEqual([
      ['Content-Type', 'application/json'],
      ['Upstash-Method', 'POST'],
    ]);
  });

  it('every option becomes exactly its header, in a fixed order', () => {
    expect(configHeaders(everyOption())).toEqual([
      ['Content-Type', 'application/json'],
      ['Upstash-Method', 'PATCH'],
      ['Upstash-Forward-X-Trace', 'a b'],
      ['Upstash-Forward-X-Multi', '1'],
      ['Upstash-Delay', '1h30m'],
      ['Upstash-Not-Before', '1767230000'],
      ['Upstash-Retries', '7'],
      ['Upstash-Retry-Delay', 'max(1000, pow(2, retried) * 100)'],
      ['Upstash-Timeout', '45s'],
      ['Upstash-Callback', 'https://example.com/cb'],
      ['Upstash-Callback-Method', 'PUT'],
      ['Upstash-Callback-Retries', '1'],
      ['Upstash-Callback-Retry-Delay', '500'],
      ['Upstash-Callback-Timeout', '10s'],
      ['Upstash-Callback-Forward-X-Cb', 'yes'],
      ['Upstash-Failure-Callback', 'https://example.com/fail'],
      ['Upstash-Failure-Callback-Forward-X-Fail', '1'],
      ['Upstash-Deduplication-Id', 'order-42'],
      ['Upstash-Label', 'billing,eu'],
      ['Upstash-Flow-Control-Key', 'tenant-1'],
      ['Upstash-Flow-Control-Value', 'parallelism=2, rate=10, period=1m'],
    ]);
  });

  it('the header table: a repeated name is sent again, unticked and nameless rows are not', () => {
    expect(configHeaders(model({ headers: headerTable() }))).toEqual([
      ['Content-Type', 'application/json'],
      ['Upstash-Method', 'POST'],
      ['Upstash-Forward-X-Trace', 'abc'],
      ['Upstash-Forward-X-Trace', 'second'],
    ]);
  });

  it('labels are trimmed and sent once each; a bare timeout is seconds', () => {
    const headers = configHeaders(model({ labels: ' a, b ,a,', timeout: '90' }));
    expect(headers).toContainEqual(['Upstash-Label', 'a,b']);
    expect(headers).toContainEqual(['Upstash-Timeout', '90s']);
  });

  it('Header-Forward sends the table headers unprefixed', () => {
    const headers = configHeaders(
      model({ headerForward: true, headers: [{ name: 'X-Sig', value: 's', enabled: true }] }),
    );
    expect(headers).toContainEqual(['Upstash-Header-Forward', 'true']);
    expect(headers).toContainEqual(['X-Sig', 's']);
    expect(headers.some(([name]) => name.startsWith('Upstash-Forward-'))).toBe(false);
  });

  it('content-based deduplication; timeouts with a day are sent in seconds', () => {
    const headers = configHeaders(model({ dedupMode: 'content', dedupId: 'ignored', timeout: '1d' }));
    expect(headers).toContainEqual(['Upstash-Content-Based-Deduplication', 'true']);
    expect(headers).toContainEqual(['Upstash-Timeout', '86400s']);
    expect(headers.some(([name]) => name === 'Upstash-Deduplication-Id')).toBe(false);
  });

  it('callback settings without a callback URL send nothing; api/llm is always POST', () => {
    const headers = configHeaders(
      model({
        destinationKind: 'llm',
        method: 'GET',
        callback: { ...emptyCallback(), method: 'PUT', retries: '2' },
      }),
    );
    expect(headers).toEqual([
      ['Content-Type', 'application/json'],
      ['Upstash-Method', 'POST'],
    ]);
  });
});

describe('buildPublishRequest', () => {
  it('publishes to a URL, a group, the LLM API, and enqueues to a queue', () => {
    expect(buildPublishRequest(model({ body: '{"a":1}' }), NOW)).toMatchObject({
      method: 'POST',
      path: '/v2/publish/https://example.com/hook',
      body: '{"a":1}',
    });
    expect(buildPublishRequest(model({ destinationKind: 'group', group: 'orders' }), NOW).path).toBe(
      '/v2/publish/orders',
    );
    expect(
      buildPublishRequest(
        model({ destinationKind: 'llm', callback: { ...emptyComposer().callback, url: 'https://x.io/cb' } }),
        NOW,
      ).path,
    ).toBe('/v2/publish/api/llm');
    expect(
      buildPublishRequest(
        model({ destinationKind: 'queue', queue: 'emails', queueTarget: 'group', group: 'g' }),
        NOW,
      ).path,
    ).toBe('/v2/enqueue/emails/g');
  });

  it('refuses an invalid model and names every problem', () => {
    const bad = model({ url: 'ftp://x', retries: 'many', delay: '10x', dedupMode: 'id' });
    expect(() => buildPublishRequest(bad, NOW)).toThrow(ComposerError);
    try {
      buildPublishRequest(bad, NOW);
    } catch (error) {
      expect(Object.keys((error as ComposerError).fields).sort()).toEqual([
        'dedupId',
        'delay',
        'retries',
        'url',
      ]);
    }
  });
});

describe('batch', () => {
  it('items carry destination, queue, headers as an object and the body', () => {
    const item = batchItemOf(
      model({ destinationKind: 'queue', queue: 'q1', body: 'hi', headers: headerTable() }),
    );
    expect(item).toEqual({
      destination: 'https://example.com/hook',
      queue: 'q1',
      body: 'hi',
      headers: {
        'Content-Type': 'application/json',
        'Upstash-Method': 'POST',
        'Upstash-Forward-X-Trace': 'abc, second',
      },
    });
    const request = buildBatchRequest([model({}), model({ destinationKind: 'group', group: 'g' })]);
    expect(request.path).toBe('/v2/batch');
    expect(JSON.parse(request.body)).toHaveLength(2);
  });
});

describe('webhookUrl', () => {
  it('puts the token and the options in the query, lowercase, without Content-Type', () => {
    const url = webhookUrl(
      model({ retries: '3', delay: '5m', headers: [{ name: 'X-Src', value: 'gh', enabled: true }] }),
      'http://127.0.0.1:8080/',
      'TOKEN',
    );
    expect(url).toBe(
      'http://127.0.0.1:8080/v2/publish/https://example.com/hook?qstash_token=TOKEN&upstash-method=POST&upstash-forward-x-src=gh&upstash-delay=5m&upstash-retries=3',
    );
  });

  it('keeps a destination’s own query string; table headers stay prefixed under Header-Forward', () => {
    const url = webhookUrl(
      model({
        url: 'https://example.com/hook?source=stripe',
        headerForward: true,
        headers: [{ name: 'X-Src', value: 'gh', enabled: true }],
      }),
      'https://qstash.upstash.io',
      'T',
    );
    expect(url).toBe(
      'https://qstash.upstash.io/v2/publish/https://example.com/hook?source=stripe&qstash_token=T&upstash-method=POST&upstash-header-forward=true&upstash-forward-x-src=gh',
    );
  });
});

describe('mergeHeaders', () => {
  it('sends one header per name, values joined, as the preview shows it', () => {
    const request = buildPublishRequest(
      model({
        headers: [
          { name: 'X-Trace', value: 'a', enabled: true },
          { name: 'x-trace', value: 'b', enabled: true },
        ],
      }),
      NOW,
    );
    expect(request.headers).toEqual([
      ['Content-Type', 'application/json'],
      ['Upstash-Method', 'POST'],
      ['Upstash-Forward-X-Trace', 'a, b'],
    ]);
  });
});
