// What Node's HTTP layer answers by itself — malformed requests, CONNECT, requests that never finish — is a
// JSON error on both ports of the stack (the message/workflow port and the KV port), over raw sockets.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestStack, type TestStack } from '../messages/test-support';

let test: TestStack;
const ports: Record<'messages' | 'kv', { port: number; token: string }> = {} as never;

beforeAll(async () => {
  // Short bounds so that a stalled request is closed quickly; the test waits for the close, not for time.
  test = await startTestStack({
    kv: true,
    kvPort: 0,
    timeouts: { headersTimeoutMs: 400, requestTimeoutMs: 400 },
  });
  const kv = test.stack.info.kv;
  if ('error' in kv) throw new Error(kv.error);
  ports.messages = { port: Number(new URL(test.url).port), token: test.token };
  ports.kv = { port: Number(new URL(kv.url).port), token: kv.token };
}, 60_000);

afterAll(() => test?.close());

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Writes `payload` and reads until the server closes the connection (the test timeout is the only limit). */
function exchange(port: number, payload: string | Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(payload));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // The server may close before reading everything we wrote (an oversized header): EPIPE/ECONNRESET.
    socket.on('error', () => {});
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return reject(new Error(`no HTTP response, got ${JSON.stringify(text.slice(0, 200))}`));
      const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: text.slice(end + 4) });
    });
  });
}

function expectJsonError(answer: RawAnswer, status: number, pattern: RegExp): void {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toBe('application/json');
  const body = JSON.parse(answer.body) as { error: string };
  expect(body.error).toMatch(pattern);
}

describe.each(['messages', 'kv'] as const)('the %s port', (service) => {
  const port = (): number => ports[service].port;
  const host = (): string => `Host: 127.0.0.1:${port()}\r\n`;
  const auth = (): string => `Authorization: Bearer ${ports[service].token}\r\n`;
  // A path whose handler reads the body, so the body's defects reach the parser after the handler started.
  const bodyPath = service === 'messages' ? '/v2/batch' : '/pipeline';

  it('answers a bad request line with a JSON 400', async () => {
    expectJsonError(await exchange(port(), 'GARBAGE\r\n\r\n'), 400, /malformed HTTP request/);
    expectJsonError(await exchange(port(), `GET / HTTP/9.9\r\n${host()}\r\n`), 400, /malformed HTTP request/);
  });

  it('answers a bad Content-Length with a JSON 400', async () => {
    const answer = await exchange(port(), `POST ${bodyPath} HTTP/1.1\r\n${host()}Content-Length: 1x\r\n\r\n`);
    expectJsonError(answer, 400, /malformed HTTP request: .*Content-Length/i);
  });

  it('answers Content-Length together with Transfer-Encoding with a JSON 400', async () => {
    const answer = await exchange(
      port(),
      `POST ${bodyPath} HTTP/1.1\r\n${host()}${auth()}Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    );
    expectJsonError(answer, 400, /malformed HTTP request/);
  });

  it('answers a bad chunk with a JSON 400 while the handler waits for the body', async () => {
    const answer = await exchange(
      port(),
      `POST ${bodyPath} HTTP/1.1\r\n${host()}${auth()}Transfer-Encoding: chunked\r\n\r\nzz\r\n`,
    );
    expectJsonError(answer, 400, /malformed HTTP request: .*chunk/i);
  });

  it('answers oversized headers with a JSON 431', async () => {
    // Node's limit is 16 KB on the message port; the KV port allows 1 MB (long path-form values).
    const size = service === 'messages' ? 20_000 : 1_100_000;
    const answer = await exchange(port(), `GET / HTTP/1.1\r\n${host()}X-Big: ${'a'.repeat(size)}\r\n\r\n`);
    expectJsonError(answer, 431, /headers are too large/);
  });

  it('answers CONNECT with a JSON 405 and an Allow header', async () => {
    const answer = await exchange(
      port(),
      `CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n`,
    );
    expectJsonError(answer, 405, /CONNECT is not allowed/);
    expect(answer.headers.allow).toMatch(/GET.*POST/);
  });

  it('closes a request whose body stops coming with a JSON 408 (bounded body read time)', async () => {
    const answer = await exchange(
      port(),
      `POST ${bodyPath} HTTP/1.1\r\n${host()}${auth()}Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n[`,
    );
    expectJsonError(answer, 408, /not received in time/);
  });

  it('closes a request whose headers stop coming with a JSON 408 (bounded header read time)', async () => {
    const answer = await exchange(port(), `GET / HTTP/1.1\r\n${host()}X-Partial: 1`);
    expectJsonError(answer, 408, /not received in time/);
  });

  it('still serves well-formed requests', async () => {
    const path = service === 'messages' ? '/v2/keys' : '/ping';
    const answer = await exchange(
      port(),
      `GET ${path} HTTP/1.1\r\n${host()}${auth()}Connection: close\r\n\r\n`,
    );
    expect(answer.status).toBe(200);
  });
});
