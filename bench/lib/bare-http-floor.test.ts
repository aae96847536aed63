import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { answerRequests, serveBareHttpFloor, wholeRequests } from './bare-http-floor';

const request = (body = '', header = 'Content-Length'): string =>
  `POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n${header}: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

describe('wholeRequests (bench/lib/bare-http-floor.ts)', () => {
  it('waits for the head and for every byte of the body', () => {
    const one = request('["SET","k","v"]');
    expect(wholeRequests(Buffer.from(one.slice(0, 20)))).toEqual({ count: 0, bytes: 0 });
    expect(wholeRequests(Buffer.from(one.slice(0, -1)))).toEqual({ count: 0, bytes: 0 });
    expect(wholeRequests(Buffer.from(one))).toEqual({ count: 1, bytes: Buffer.byteLength(one) });
  });

  it('counts pipelined requests and leaves a partial one for later', () => {
    const first = request('["GET","a"]');
    const second = request('', 'content-length');
    const third = request('["GET","b"]', 'CONTENT-LENGTH');
    const pending = Buffer.from(first + second + third.slice(0, -3));
    expect(wholeRequests(pending)).toEqual({
      count: 2,
      bytes: Buffer.byteLength(first) + Buffer.byteLength(second),
    });
  });

  it('takes a request without Content-Length as one without a body', () => {
    const get = 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
    expect(wholeRequests(Buffer.from(get + get))).toEqual({ count: 2, bytes: 2 * get.length });
  });
});

describe('answerRequests', () => {
  it('answers a request that arrives in pieces once, when its last piece arrives', () => {
    const written: string[] = [];
    const feed = answerRequests((answers) => written.push(answers.toString('latin1')));
    const split = request('["SET","k","v"]');
    feed(Buffer.from(split.slice(0, 10)));
    feed(Buffer.from(split.slice(10, -5)));
    expect(written).toEqual([]);
    feed(Buffer.from(split.slice(-5) + request() + request().slice(0, 5)));
    expect(written).toHaveLength(1);
    expect(written[0]!.split('HTTP/1.1 200 OK').length - 1).toBe(2);
    feed(Buffer.from(request().slice(5)));
    expect(written).toHaveLength(2);
    expect(written[1]!.endsWith('{"result":"OK"}')).toBe(true);
  });
});

describe('serveBareHttpFloor', () => {
  let floor: Awaited<ReturnType<typeof serveBareHttpFloor>>;
  beforeAll(async () => {
    floor = await serveBareHttpFloor();
  });
  afterAll(() => floor.close());

  it('answers keep-alive requests from a real HTTP client, one answer per request', async () => {
    const pool = new Pool(floor.url, { connections: 2 });
    try {
      const answers = await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          const { statusCode, body } = await pool.request({
            path: `/pipeline/${i}`,
            method: 'POST',
            body: JSON.stringify([['GET', `k${i}`]]),
          });
          return { statusCode, text: await body.text() };
        }),
      );
      expect(answers).toEqual(
        Array.from({ length: 20 }, () => ({ statusCode: 200, text: '{"result":"OK"}' })),
      );
    } finally {
      await pool.close();
    }
  });
});
