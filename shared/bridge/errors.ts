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
}

/** Thrown by handlers in main and by the client in the renderer; serialises to BridgeErrorData. */
export class BridgeError extends Error implements BridgeErrorData {
  readonly code: BridgeErrorCode;
  readonly status?: number;
  readonly fields?: Record<string, string>;

  constructor(data: BridgeErrorData) {
    super(data.message);
    this.name = 'BridgeError';
    this.code = data.code;
    if (data.status !== undefined) this.status = data.status;
    if (data.fields !== undefined) this.fields = data.fields;
  }

  toData(): BridgeErrorData {
    const data: BridgeErrorData = { code: this.code, message: this.message };
    if (this.status !== undefined) data.status = this.status;
    if (this.fields !== undefined) data.fields = this.fields;
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
