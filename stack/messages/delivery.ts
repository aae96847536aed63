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
  private readonly controllers = new Set<AbortController>();

  constructor(private readonly maxResponseBody = 1_048_576) {}

  async send(outgoing: OutgoingRequest): Promise<DeliveryResponse> {
    const controller = new AbortController();
    this.controllers.add(controller);
    const timer = setTimeout(() => controller.abort(new Error('timeout')), outgoing.timeoutMs);
    try {
      const hasBody = outgoing.method !== 'GET' && outgoing.method !== 'HEAD';
      const response = await request(outgoing.url, {
        dispatcher: this.agent,
        method: outgoing.method as 'POST',
        headers: outgoing.headers,
        body: hasBody ? outgoing.body : undefined,
        signal: controller.signal,
        headersTimeout: outgoing.timeoutMs,
        bodyTimeout: outgoing.timeoutMs,
      });
      const header: HeaderMap = {};
      for (const [name, value] of Object.entries(response.headers)) {
        if (value === undefined) continue;
        header[name] = Array.isArray(value) ? value : [value];
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response.body) {
        const buffer = chunk as Buffer;
        if (size + buffer.length > this.maxResponseBody) {
          chunks.push(buffer.subarray(0, this.maxResponseBody - size));
          response.body.destroy();
          break;
        }
        size += buffer.length;
        chunks.push(buffer);
      }
      return { status: response.statusCode, header, body: Buffer.concat(chunks) };
    } catch (error) {
      const reason = controller.signal.aborted
        ? controller.signal.reason instanceof Error && controller.signal.reason.message === 'timeout'
          ? `timeout after ${Math.round(outgoing.timeoutMs / 1_000)}s`
          : 'aborted: the stack is shutting down'
        : describe(error);
      return { header: {}, body: Buffer.alloc(0), error: reason };
    } finally {
      clearTimeout(timer);
      this.controllers.delete(controller);
    }
  }

  /** Aborts whatever is still in flight and closes the pool. */
  async close(): Promise<void> {
    for (const controller of this.controllers) controller.abort(new Error('shutdown'));
    await this.agent.close().catch(() => undefined);
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as Error & { cause?: unknown }).cause;
  const code = (error as NodeJS.ErrnoException).code ?? (cause as NodeJS.ErrnoException | undefined)?.code;
  const message = cause instanceof Error ? cause.message : error.message;
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}
