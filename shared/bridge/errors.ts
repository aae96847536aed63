// Errors crossing the bridge are plain data the UI can show: a stable code and a human message.
// Stack traces never cross; main logs them instead.

export type BridgeErrorCode =
  /** The input did not match the procedure's schema. */
  | 'INVALID_INPUT'
  /** No such procedure (or a call used as a stream, or the reverse). */
  | 'UNKNOWN_PROCEDURE'
  /** The profile is read-only and the procedure writes. */
  | 'READ_ONLY'
  /** A referenced thing (profile, stream) does not exist. */
  | 'NOT_FOUND'
  /** The profile lacks a token or URL the call needs. */
  | 'NOT_CONFIGURED'
  /** The service answered with an error status; `status` and the service's own text are kept. */
  | 'SERVICE_ERROR'
  /** The service could not be reached (DNS, refused, reset, TLS). */
  | 'UNREACHABLE'
  /**
   * The service took the request (or the connection) and did not answer within the deadline. Kept apart from
   * UNREACHABLE so that nobody asks again at once: that would only be another wait as long for the same end.
   */
  | 'TIMEOUT'
  /** The request was cancelled by the caller. */
  | 'CANCELLED'
  /** A bug in Switchyard; the message says where to look (the log), never a stack trace. */
  | 'INTERNAL';

export interface BridgeErrorData {
  code: BridgeErrorCode;
  message: string;
  /** HTTP status from the service, for SERVICE_ERROR. */
  status?: number;
  /** Per-field problems, for INVALID_INPUT: path (`a.b.0`) → message. */
  fields?: Record<string, string>;
  /**
   * For a SERVICE_ERROR the service says will pass (429, 503): how long it asked the client to wait, from
   * `Retry-After` or its rate-limit reset time (`retryAfterOf` in main/core/http/service-http.ts). Absent when it did not say.
   */
  retryAfterMs?: number;
  /**
   * For UNREACHABLE and TIMEOUT: the connection's own error code (ECONNREFUSED, ENOTFOUND, ECONNRESET,
   * UND_ERR_SOCKET, UND_ERR_CONNECT_TIMEOUT…), when it had one. Only the code: never the address or a header.
   * It says whether the request can have reached the service (`neverSent`).
   */
  networkCode?: string;
}

/** Thrown by handlers in main and by the client in the renderer; serialises to BridgeErrorData. */
export class BridgeError extends Error implements BridgeErrorData {
  readonly code: BridgeErrorCode;
  readonly status?: number;
  readonly fields?: Record<string, string>;
  readonly retryAfterMs?: number;
  readonly networkCode?: string;

  constructor(data: BridgeErrorData) {
    super(data.message);
    this.name = 'BridgeError';
    this.code = data.code;
    if (data.status !== undefined) this.status = data.status;
    if (data.fields !== undefined) this.fields = data.fields;
    if (data.retryAfterMs !== undefined) this.retryAfterMs = data.retryAfterMs;
    if (data.networkCode !== undefined) this.networkCode = data.networkCode;
  }

  toData(): BridgeErrorData {
    const data: BridgeErrorData = { code: this.code, message: this.message };
    if (this.status !== undefined) data.status = this.status;
    if (this.fields !== undefined) data.fields = this.fields;
    if (this.retryAfterMs !== undefined) data.retryAfterMs = this.retryAfterMs;
    if (this.networkCode !== undefined) data.networkCode = this.networkCode;
    return data;
  }
}

export function isBridgeErrorData(value: unknown): value is BridgeErrorData {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as BridgeErrorData).code === 'string' &&
    typeof (value as BridgeErrorData).message === 'string'
  );
}

/**
 * The failure may not happen again a moment later: the service could not be reached for an instant
 * (refused, reset) or failed on its side (5xx, 429). A refusal (401, 403, 404, 400), a missing setting or
 * bad input answers the same the second time, and a TIMEOUT would only make the caller wait as long again
 * for the same end. The one rule of "ask again": the renderer's query retry (renderer/src/bridge/retry.ts)
 * and the job runner's wait through a short outage (main/core/jobs/runner.ts).
 */
export function mayPass(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, status } = error as Partial<BridgeErrorData>;
  if (code === 'UNREACHABLE') return true;
  return code === 'SERVICE_ERROR' && status !== undefined && (status >= 500 || status === 429);
}

/**
 * Connection failures that happen before a byte of the request is written: nothing listening (refused),
 * no such host (DNS), no route, no connection within the connect deadline — and NOT_SENT, Switchyard's own
 * for a request it did not send at all (the Local profile while its stack is not running).
 */
const BEFORE_SENDING = new Set([
  'NOT_SENT',
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * The request never reached the service: the connection failed before it was sent, so sending it again
 * cannot make the service act twice. A reset, a closed socket or an unknown cause may have come after the
 * service read the request: not proven unsent.
 */
export function neverSent(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, networkCode } = error as Partial<BridgeErrorData>;
  return (
    (code === 'UNREACHABLE' || code === 'TIMEOUT') &&
    networkCode !== undefined &&
    BEFORE_SENDING.has(networkCode)
  );
}

/**
 * What a bulk job waits through (main/core/jobs/runner.ts): a failure that may pass (`mayPass`), and also
 * a connection that timed out before the request was sent (`neverSent`: the host did not answer at all,
 * say while it reboots). A screen would rather show that at once than make its user wait as long again
 * (`mayPass` leaves every TIMEOUT out), but a job runs unattended and has its own growing waits.
 */
export function jobWaitsThrough(error: unknown): boolean {
  if (mayPass(error)) return true;
  return (error as Partial<BridgeErrorData> | null)?.code === 'TIMEOUT' && neverSent(error);
}

/**
 * A failure that may pass (`mayPass`) after which the service may have acted on the request: a 5xx (it
 * answered, perhaps after acting), or a connection lost with the request possibly sent. Not a 429 (the
 * service refused to act) nor a connection that never carried the request (`neverSent`).
 */
export function mayHaveActed(error: unknown): boolean {
  if (!mayPass(error) || neverSent(error)) return false;
  return (error as Partial<BridgeErrorData>).status !== 429;
}
