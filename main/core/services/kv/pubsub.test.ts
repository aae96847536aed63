// Each subscription lives on its own: against a real SSE service on loopback (speaking the KV REST
// service's /subscribe wire), a subscription whose connection drops is subscribed again by itself while
// the others keep streaming, and one the service refuses (401) stays ended with the service's text.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { KvPubSubEvent } from '../../../../shared/bridge/procedures/kv/live';
import type { ProfilesService, ResolvedProfile } from '../../profiles/profiles-service';
import { pubsubHandlers, subscriptionLost } from './pubsub';
import { Recorder } from './stream-recorder';

const TOKEN = 'pubsub-test-token';

/**
 * The service: `/subscribe/<channel>` answers 200 and `subscribe,<channel>,1`, then whatever the test
 * publishes; `/subscribe/secret` answers 401; a channel in `resetting` has its requests' connections
 * closed unanswered (the service is away for that one).
 */
class SseService {
  readonly open = new Map<string, http.ServerResponse>();
  readonly requests: string[] = [];
  resetting = new Set<string>();
  private waiters: (() => void)[] = [];
  private server = http.createServer((req, res) => {
    const channel = decodeURIComponent((req.url ?? '').replace(/^\/subscribe\//, ''));
    this.requests.push(channel);
    if (req.headers.authorization !== `Bearer ${TOKEN}` || channel === 'secret') {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"Unauthorized"}');
      return;
    }
    if (this.resetting.has(channel)) {
      req.socket.destroy();
      this.wake();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(`data: subscribe,${channel},1\n\n`);
    this.open.set(channel, res);
    res.on('close', () => {
      if (this.open.get(channel) === res) this.open.delete(channel);
    });
    this.wake();
  });
  url = '';

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  publish(channel: string, payload: string): void {
    this.open.get(channel)!.write(`data: message,${channel},${payload}\n\n`);
  }
  /** Drops the channel's connection mid-stream, as a restarting service or a proxy would. */
  drop(channel: string): void {
    this.open.get(channel)!.socket!.destroy();
  }
  async until(check: () => boolean): Promise<void> {
    while (!check()) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }
  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    waiters.forEach((w) => w());
  }
  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The events of one channel or pattern. */
const of = (sink: Recorder<KvPubSubEvent>, target: string): KvPubSubEvent[] =>
  sink.events.filter((e) => 'target' in e && e.target === target);

const service = new SseService();
beforeAll(() => service.start());
afterAll(() => service.close());
afterEach(() => {
  service.resetting.clear();
  service.requests.length = 0;
});

/** A profile on the service whose KV token is whatever `token` says at the time. */
function profilesWith(token: () => string): ProfilesService {
  const profile: ResolvedProfile = {
    id: 'p',
    settings: {
      name: 'SSE',
      env: 'dev',
      messagesUrl: '',
      kvUrl: service.url,
      readOnly: false,
      confirmDangerous: true,
    },
    secret: (name) => (name === 'kvToken' ? token() : undefined),
  };
  return { resolve: () => profile } as unknown as ProfilesService;
}

function handlers(delay?: (attempt: number) => number) {
  return pubsubHandlers({ profiles: profilesWith(() => TOKEN) }, delay ? { delay } : {});
}

/** Opens `kv.subscribe` for `channels` (retry delays from `delay`); the page's events and the stop. */
async function subscribe(channels: string[], delay?: (attempt: number) => number) {
  const sink = new Recorder<KvPubSubEvent>();
  const stop = await handlers(delay)['kv.subscribe']({ profileId: 'p', channels, patterns: [] }, sink);
  return { sink, stop };
}

const isMessage = (channel: string, payload: string) => (e: KvPubSubEvent) =>
  e.kind === 'message' && e.channel === channel && e.payload === payload;

describe('kv.subscribe, one subscription at a time', () => {
  it('subscribes a dropped channel again after 1 s while the other keeps streaming', async () => {
    const { sink, stop } = await subscribe(['orders', 'news']);
    try {
      await sink.until((e) => e.kind === 'subscribed' && e.target === 'news');
      await service.until(() => service.open.has('orders') && service.open.has('news'));
      service.drop('news');
      expect(await sink.until((e) => e.kind === 'failed' && e.target === 'news')).toMatchObject({
        reason: 'lost',
        message: expect.stringMatching(/Lost the connection|ended/),
      });
      expect(await sink.until((e) => e.kind === 'reconnecting' && e.target === 'news')).toMatchObject({
        attempt: 1,
        inMs: 1000,
      });

      // Meanwhile the other subscription is open and delivers.
      service.publish('orders', 'while news is down');
      await sink.until(isMessage('orders', 'while news is down'));
      expect(sink.ended).toBeUndefined();

      // Back by itself, marked as a reconnect, and delivering again.
      const back = await sink.until(
        (e) => e.kind === 'subscribed' && e.target === 'news' && e.reconnectedAt !== undefined,
      );
      expect(back).toMatchObject({ count: 1, reconnectedAt: expect.any(Number) });
      await service.until(() => service.open.has('news'));
      service.publish('news', 'after');
      await sink.until(isMessage('news', 'after'));
      // orders was never touched: it was subscribed once.
      expect(of(sink, 'orders').map((e) => e.kind)).toEqual(['subscribed']);
      expect(service.requests.filter((c) => c === 'orders')).toHaveLength(1);
    } finally {
      stop();
    }
  });

  it('backs off 1, 2, 4 … while the service stays away for that channel, then picks up', async () => {
    // The schedule is reconnectDelay's, scaled down to keep the test short.
    const { sink, stop } = await subscribe(['orders', 'news'], (attempt) => 10 * 2 ** (attempt - 1));
    try {
      await service.until(() => service.open.has('orders') && service.open.has('news'));
      await sink.until((e) => e.kind === 'subscribed' && e.target === 'news');
      service.resetting.add('news');
      service.drop('news');
      await sink.until((e) => e.kind === 'reconnecting' && e.target === 'news' && e.attempt === 4);
      service.resetting.delete('news');
      await sink.until((e) => e.kind === 'subscribed' && e.target === 'news' && !!e.reconnectedAt);

      const news = of(sink, 'news');
      expect(news.filter((e) => e.kind === 'failed')).toHaveLength(1);
      const waits = news.flatMap((e) => (e.kind === 'reconnecting' ? [[e.attempt, e.inMs]] : []));
      expect(waits.slice(0, 4)).toEqual([
        [1, 10],
        [2, 20],
        [3, 40],
        [4, 80],
      ]);
      // The tries that failed say why.
      expect(news.find((e) => e.kind === 'reconnecting' && e.attempt === 2)).toMatchObject({
        message: expect.stringMatching(/Lost the connection|socket|closed/i),
      });
      service.publish('orders', 'still here');
      await sink.until(isMessage('orders', 'still here'));
      expect(service.requests.filter((c) => c === 'orders')).toHaveLength(1);
    } finally {
      stop();
    }
  });

  it('never gives a lost channel up while it stays subscribed: after many tries at the longest wait it picks up', async () => {
    // Decided: a tab left subscribed through an outage of any length picks up without a click, as redis
    // clients do; the page shows each try's countdown and since when the channel was lost.
    const { sink, stop } = await subscribe(['news'], () => 1);
    try {
      await sink.until((e) => e.kind === 'subscribed' && e.target === 'news');
      service.resetting.add('news');
      service.drop('news');
      await sink.until((e) => e.kind === 'reconnecting' && e.attempt === 60);
      service.resetting.delete('news');
      await sink.until((e) => e.kind === 'subscribed' && !!e.reconnectedAt);
      expect(sink.events.filter((e) => e.kind === 'failed')).toHaveLength(1);
      expect(sink.ended).toBeUndefined();
    } finally {
      stop();
    }
  });

  it('keeps a refused channel ended with the service text (401), the others open, no retries', async () => {
    const { sink, stop } = await subscribe(['orders', 'secret'], (attempt) => attempt);
    try {
      expect(await sink.until((e) => e.kind === 'failed' && e.target === 'secret')).toMatchObject({
        reason: 'refused',
        message: expect.stringContaining('Unauthorized'),
      });
      await service.until(() => service.open.has('orders'));
      service.publish('orders', 'open');
      await sink.until(isMessage('orders', 'open'));
      // Dropping the open one now reconnects it; the refused one is never asked again.
      service.drop('orders');
      await sink.until((e) => e.kind === 'subscribed' && e.target === 'orders' && !!e.reconnectedAt);
      expect(sink.events.some((e) => e.kind === 'reconnecting' && e.target === 'secret')).toBe(false);
      expect(service.requests.filter((c) => c === 'secret')).toHaveLength(1);
      expect(sink.ended).toBeUndefined();
    } finally {
      stop();
    }
  });

  it('ends a reconnect that the service refuses (the token was revoked meanwhile), the stream with the last', async () => {
    const sink = new Recorder<KvPubSubEvent>();
    let token = TOKEN;
    const stop = await pubsubHandlers({ profiles: profilesWith(() => token) }, { delay: () => 5 })[
      'kv.subscribe'
    ]({ profileId: 'p', channels: ['news'], patterns: [] }, sink);
    try {
      await service.until(() => service.open.has('news'));
      token = 'revoked';
      service.drop('news');
      await sink.until((e) => e.kind === 'failed' && e.reason === 'refused');
      const failures = sink.events.filter((e) => e.kind === 'failed');
      expect(failures.map((e) => e.kind === 'failed' && e.reason)).toEqual(['lost', 'refused']);
      // Its only subscription refused: the stream ends with the service's answer.
      expect(sink.ended?.error).toMatchObject({ code: 'SERVICE_ERROR', status: 401 });
    } finally {
      stop();
    }
  });

  it('stops reconnecting when the page stops the stream', async () => {
    const { sink, stop } = await subscribe(['news'], () => 50);
    await service.until(() => service.open.has('news'));
    service.drop('news');
    await sink.until((e) => e.kind === 'reconnecting');
    const asked = service.requests.length;
    stop();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(service.requests.length).toBe(asked);
    expect(sink.events.at(-1)?.kind).toBe('reconnecting');
  });

  it('tells a lost connection from a refusal', () => {
    expect(subscriptionLost({ code: 'UNREACHABLE', message: 'reset' })).toBe(true);
    expect(subscriptionLost({ code: 'TIMEOUT', message: 'slow' })).toBe(true);
    expect(subscriptionLost({ code: 'SERVICE_ERROR', message: 'The KV service ended it.' })).toBe(true);
    expect(subscriptionLost({ code: 'SERVICE_ERROR', status: 503, message: 'restarting' })).toBe(true);
    expect(subscriptionLost({ code: 'SERVICE_ERROR', status: 401, message: 'Unauthorized' })).toBe(false);
    expect(subscriptionLost({ code: 'SERVICE_ERROR', status: 400, message: 'NOPERM' })).toBe(false);
    expect(subscriptionLost({ code: 'NOT_CONFIGURED', message: 'no token' })).toBe(false);
  });
});
