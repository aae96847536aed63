// The HTTP side of a delivery: one request to the destination over a keep-alive undici pool, with a
// timeout, and the response (status, headers, a bounded body) or the reason there was none.
import { Agent, request } from 'undici';
import type { HeaderMap } from '../../shared/messages/types';

export interface OutgoingRequest {
  url: string;
  method: string;
  headers: Record<string, string | string[]>;
  body: Buffer;
  timeoutMs: number;
}

export interface DeliveryResponse {
  /** Undefined when no HTTP response arrived (refused, reset, timed out). */
  status?: number;
  header: HeaderMap;
  body: Buffer;
  error?: string;
}

/** Sends deliveries; the engine talks to this interface so that another transport could stand in. */
export interface Transport {
  send(request: OutgoingRequest): Promise<DeliveryResponse>;
  close(): Promise<void>;
}

export class HttpTransport implements Transport {
  private readonly agent = new Agent({
    keepAliveTimeout: 10_000,
    keepAliveMaxTimeout: 60_000,
    connect: { timeout: 10_000 },
  });
  private closing = false;

  constructor(private readonly maxResponseBody = 1_048_576) {}

  async send(outgoing: OutgoingRequest): Promise<DeliveryResponse> {
    try {
      const hasBody = outgoing.method !== 'GET' && outgoing.method !== 'HEAD';
      // undici's own timers bound the wait for the answer and for each piece of its body; no AbortController
      // and timer per delivery (they showed up in profiles).
      const response = await request(outgoing.url, {
        dispatcher: this.agent,
        method: outgoing.method as 'POST',
        headers: outgoing.headers,
        body: hasBody ? outgoing.body : undefined,
        headersTimeout: outgoing.timeoutMs,
        bodyTimeout: outgoing.timeoutMs,
      });
      const header: HeaderMap = {};
      for (const name in response.headers) {
        const value = response.headers[name];
        if (value === undefined) continue;
        header[name] = Array.isArray(value) ? value : [value];
      }
      const body = await readBounded(response.body, this.maxResponseBody);
      return { status: response.statusCode, header, body };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const reason = this.closing
        ? 'aborted: the stack is shutting down'
        : code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT'
          ? `timeout after ${Math.round(outgoing.timeoutMs / 1_000)}s`
          : describe(error);
      return { header: {}, body: Buffer.alloc(0), error: reason };
    }
  }

  /** Aborts whatever is still in flight and closes the pool. */
  async close(): Promise<void> {
    this.closing = true;
    await this.agent.destroy().catch(() => undefined);
  }
}

/** Reads at most `max` bytes of a response body and drops the rest. */
function readBounded(body: NodeJS.ReadableStream & { destroy(): void }, max: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
    };
    body.on('data', (chunk: Buffer) => {
      if (done) return;
      if (size + chunk.length > max) {
        chunks.push(chunk.subarray(0, max - size));
        finish();
        body.destroy();
        return;
      }
      size += chunk.length;
      chunks.push(chunk);
    });
    body.on('end', finish);
    body.on('error', (error) => {
      if (!done) {
        done = true;
        reject(error);
      }
    });
  });
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as Error & { cause?: unknown }).cause;
  const code = (error as NodeJS.ErrnoException).code ?? (cause as NodeJS.ErrnoException | undefined)?.code;
  const message = cause instanceof Error ? cause.message : error.message;
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}
