import { describe, expect, it } from 'vitest';
import { importCurl, parseCurl, shellWords, toCurl } from './curl';
import { everyOption } from './fixtures';
import { emptyComposer, type ComposerModel } from './model';
import { buildPublishRequest } from './request';
import { toQstashTypeScript } from './typescript';

const NOW = Date.UTC(2026, 0, 1);
const BASE = 'http://127.0.0.1:8080';

function roundTrip(model: ComposerModel): ComposerModel {
  const request = buildPublishRequest(model, NOW);
  const command = toCurl(request, `${BASE}${request.path}`, { kind: 'env', variable: 'QSTASH_TOKEN' });
  const imported = importCurl(command);
  expect(imported.notes).toEqual(['the Authorization header was not imported (main adds the token)']);
  return imported.model;
}

describe('shellWords', () => {
  it('handles quotes, $-quotes, escapes and line continuations', () => {
    expect(shellWords(`curl -H 'a: it'\\''s' "x \\"y\\" $z" $'l1\\nl2' a\\ b \\\n  end`)).toEqual([
      'curl',
      '-H',
      "a: it's",
      'x "y" $z',
      'l1\nl2',
      'a b',
      'end',
    ]);
    expect(() => shellWords(`curl 'open`)).toThrow('a single quote is not closed');
  });
});

describe('toCurl', () => {
  it('quotes every header and the body for a POSIX shell', () => {
    const request = buildPublishRequest(
      emptyComposer({ url: 'https://example.com/a', body: `{"msg":"it's"}`, retries: '2' }),
      NOW,
    );
    expect(toCurl(request, `${BASE}${request.path}`, { kind: 'env', variable: 'QSTASH_TOKEN' })).toBe(
      [
        `curl -X POST http://127.0.0.1:8080/v2/publish/https://example.com/a`,
        `-H "Authorization: Bearer $QSTASH_TOKEN"`,
        `-H 'Content-Type: application/json'`,
        `-H 'Upstash-Method: POST'`,
        `-H 'Upstash-Retries: 2'`,
        `--data-raw '{"msg":"it'\\''s"}'`,
      ].join(' \\\n  '),
    );
    expect(toCurl(request, 'u', { kind: 'token', token: 'tok' })).toContain(`-H 'Authorization: Bearer tok'`);
  });
});

describe('curl round trip (export, then import)', () => {
  it('a model with every option comes back unchanged', () => {
    const model = everyOption();
    expect(roundTrip(model)).toEqual(model);
  });

  it('queues, groups, content dedup and Header-Forward survive too', () => {
    for (const model of [
      emptyComposer({ destinationKind: 'queue', queue: 'emails', queueTarget: 'url', url: 'https://e.io/x' }),
      emptyComposer({ destinationKind: 'queue', queue: 'emails', queueTarget: 'group', group: 'fanout' }),
      emptyComposer({
        destinationKind: 'group',
        group: 'fanout',
        dedupMode: 'content',
        contentType: 'text/plain',
        body: 'hi',
      }),
      emptyComposer({
        url: 'https://e.io/x',
        headerForward: true,
        headers: [{ name: 'X-Sig', value: 'abc', enabled: true }],
      }),
    ]) {
      expect(roundTrip(model)).toEqual(model);
    }
  });
});

describe('importCurl', () => {
  it('a browser’s "Copy as cURL" of a plain request becomes a message to that URL', () => {
    const { model, notes } = importCurl(
      `curl 'https://api.example.com/orders' -H 'content-type: application/json' -H 'authorization: Bearer abc' -H 'x-req: 1' --data-raw $'{"a":"b\\'c"}' --compressed`,
    );
    expect(model).toMatchObject({
      destinationKind: 'url',
      url: 'https://api.example.com/orders',
      method: 'POST',
      contentType: 'application/json',
      body: `{"a":"b'c"}`,
      headers: [
        { name: 'authorization', value: 'Bearer abc', enabled: false },
        { name: 'x-req', value: '1', enabled: true },
      ],
    });
    expect(notes).toEqual([
      'the Authorization header was imported unticked: tick it to forward it to the destination',
    ]);
  });

  it('a webhook intake URL is read back from its query, without the token', () => {
    const { model, notes } = importCurl(
      `curl -X POST 'https://qstash.upstash.io/v2/publish/https://e.io/hook?qstash_token=SECRET&upstash-retries=3&upstash-forward-x-src=gh' -d 'x=1'`,
    );
    expect(model).toMatchObject({ url: 'https://e.io/hook', retries: '3', body: 'x=1' });
    expect(model.headers).toEqual([{ name: 'x-src', value: 'gh', enabled: true }]);
    expect(JSON.stringify(model)).not.toContain('SECRET');
    expect(notes).toContain('the token in the URL was not imported');
  });

  it('glued short options, GET without data, and clear errors', () => {
    expect(parseCurl(`curl -XPUT -H'X-A: 1' https://e.io`)).toMatchObject({
      method: 'PUT',
      url: 'https://e.io',
      headers: [['X-A', '1']],
    });
    expect(importCurl('curl https://e.io/x').model.method).toBe('GET');
    expect(() => importCurl('wget https://e.io')).toThrow('the command must start with curl');
    expect(() => importCurl('curl -H')).toThrow('-H needs a value');
    expect(() => importCurl('curl -s')).toThrow('no URL in the command');
  });
});

describe('toQstashTypeScript', () => {
  it('writes a publish call with every option the client knows', () => {
    const code = toQstashTypeScript(
      emptyComposer({
        url: 'https://e.io/hook',
        body: '{"a":1}',
        headers: [{ name: 'X-A', value: '1', enabled: true }],
        delay: '10s',
        retries: '2',
        timeout: '1h30m',
        callback: { ...emptyComposer().callback, url: 'https://e.io/cb', retries: '1' },
        dedupMode: 'content',
        labels: 'a,b',
        flowControlKey: 'k',
        flowControlRate: '5',
      }),
      BASE,
    );
    for (const line of [
      'import { Client } from "@upstash/qstash";',
      'baseUrl: "http://127.0.0.1:8080",',
      'const result = await client.publish({',
      'url: "https://e.io/hook",',
      '"X-A": "1",',
      '"Upstash-Callback-Retries": "1",',
      'body: JSON.stringify({\n    "a": 1\n  }),',
      'delay: "10s",',
      'timeout: 5400,',
      'contentBasedDeduplication: true,',
      'label: ["a","b"],',
      'flowControl: { key: "k", rate: 5 },',
    ])
      expect(code).toContain(line);
    expect(code).not.toMatch(/token: "/);
  });

  it('enqueues through the queue API', () => {
    const code = toQstashTypeScript(
      emptyComposer({ destinationKind: 'queue', queue: 'q', url: 'https://e.io' }),
      BASE,
    );
    expect(code).toContain('client.queue({ queueName: "q" }).enqueue({');
  });
});
