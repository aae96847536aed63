// The HTTP side of a delivery: one request to the destination over a keep-alive undici pool, with a
// timeout, and the response (status, headers, a bounded body) or the reason there was none.
import { Agent } from './undici-agent';
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

/**
 * The most connections kept to one destination origin. Opening a connection costs more CPU than the request it
 * carries (an undici client, a socket and a TCP handshake on both sides), and without a cap a burst opened one per
 * concurrent delivery: 1,000 messages due at one minute spent about a quarter of the stack's time connecting.
 * With the cap, deliveries beyond it wait in the pool's queue for a free connection (their timeout starts when
 * they are sent), and other origins are not held up. 64 measured best in `bench messages` and `bench schedules`
 * (16 queued too much; no cap connected too often).
 */
export const CONNECTIONS_PER_ORIGIN = 64;

export class HttpTransport implements Transport {
  private readonly agent = new Agent({
    connections: CONNECTIONS_PER_ORIGIN,
    keepAliveTimeout: 10_000,
    keepAliveMaxTimeout: 60_000,
    connect: { timeout: 10_000 },
  });
  private closing = false;

  constructor(private readonly maxResponseBody = 1_048_576) {}

  send(outgoing: OutgoingRequest): Promise<DeliveryResponse> {
    // undici's low-level dispatch: no Readable stream or promise chain per response (request() allocated
    // enough of them to show up as garbage-collection work under load).
    return new Promise((resolve) => {
      let target: { origin: string; path: string };
      try {
        target = this.target(outgoing.url);
      } catch (error) {
        resolve({ header: {}, body: Buffer.alloc(0), error: describe(error) });
        return;
      }
      const hasBody = outgoing.method !== 'GET' && outgoing.method !== 'HEAD';
      const fail = (error: unknown): void => {
        const code = (error as NodeJS.ErrnoException).code;
        const reason = this.closing
          ? 'aborted: the stack is shutting down'
          : code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT'
            ? `timeout after ${Math.round(outgoing.timeoutMs / 1_000)}s`
            : describe(error);
        resolve({ header: {}, body: Buffer.alloc(0), error: reason });
      };
      try {
        this.dispatch(outgoing, target, hasBody, fail, resolve);
      } catch (error) {
        // Invalid arguments throw synchronously; a delivery never rejects.
        fail(error);
      }
    });
  }

  private dispatch(
    outgoing: OutgoingRequest,
    target: { origin: string; path: string },
    hasBody: boolean,
    fail: (error: unknown) => void,
    resolve: (response: DeliveryResponse) => void,
  ): void {
    const max = this.maxResponseBody;
    let status = 0;
    let header: HeaderMap = {};
    const chunks: Buffer[] = [];
    let size = 0;
    this.agent.dispatch(
      {
        origin: target.origin,
        path: target.path,
        method: outgoing.method as 'POST',
        headers: outgoing.headers,
        body: hasBody ? outgoing.body : undefined,
        // undici's own timers bound the wait for the answer and for each piece of its body.
        headersTimeout: outgoing.timeoutMs,
        bodyTimeout: outgoing.timeoutMs,
      },
      {
        onRequestStart: () => undefined,
        onResponseStart: (_controller, statusCode, headers) => {
          status = statusCode;
          header = {};
          for (const name in headers) {
            const value = headers[name];
            if (value === undefined) continue;
            header[name] = Array.isArray(value) ? value : [value];
          }
        },
        onResponseData: (_controller, chunk) => {
          if (size >= max) return;
          const piece = size + chunk.length > max ? chunk.subarray(0, max - size) : chunk;
          size += piece.length;
          chunks.push(piece);
        },
        onResponseEnd: () => {
          resolve({
            status,
            header,
            body: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks),
          });
        },
        onResponseError: (_controller, error) => fail(error),
      },
    );
  }

  private readonly targets = new Map<string, { origin: string; path: string }>();

  /** Origin and path of a URL; destinations repeat, so parsed ones are remembered (a bounded cache). */
  private target(url: string): { origin: string; path: string } {
    let target = this.targets.get(url);
    if (!target) {
      const parsed = new URL(url);
      target = { origin: parsed.origin, path: parsed.pathname + parsed.search };
      if (this.targets.size >= 1_000) this.targets.clear();
      this.targets.set(url, target);
    }
    return target;
  }

  /** Aborts whatever is still in flight and closes the pool. */
  async close(): Promise<void> {
    this.closing = true;
    await this.agent.destroy().catch(() => undefined);
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as Error & { cause?: unknown }).cause;
  const code = (error as NodeJS.ErrnoException).code ?? (cause as NodeJS.ErrnoException | undefined)?.code;
  const message = cause instanceof Error ? cause.message : error.message;
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}
