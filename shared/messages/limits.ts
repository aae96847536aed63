// The message service's documented limits and defaults, in one place: the composer shows and checks them,
// the DLQ retry overrides and the bridge schemas enforce them, and the local stack applies them.

const DAY_MS = 86_400_000;

/** Deliveries after the first when a message sets no `Upstash-Retries`. */
export const DEFAULT_RETRIES = 3;
/** Highest `Upstash-Retries` the service takes. */
export const MAX_RETRIES = 100;

/** A duplicate (same deduplication id or content) within this window is accepted but not delivered again. */
export const DEDUP_WINDOW_MS = 10 * 60_000;
export const DEDUP_WINDOW_MINUTES = DEDUP_WINDOW_MS / 60_000;
/** Longest `Upstash-Deduplication-Id`. */
export const MAX_DEDUP_ID_LENGTH = 500;

/** Longest `Upstash-Delay` (and farthest `Upstash-Not-Before`): the pay-as-you-go maximum. */
export const MAX_DELAY_MS = 365 * DAY_MS;
export const MAX_DELAY_DAYS = MAX_DELAY_MS / DAY_MS;
/** `Upstash-Timeout` range. */
export const MIN_TIMEOUT_MS = 1_000;
export const MAX_TIMEOUT_MS = DAY_MS;

/**
 * Largest request head of a publish (request line with the destination URL, and the headers), in bytes:
 * the message port's HTTP limit. Batch items, URL-group endpoints and URL-group default headers arrive in
 * JSON bodies and are held to the same size, so no path takes a larger URL or header set than another.
 */
export const MAX_HEADER_BYTES = 16_384;

/**
 * About how large one page of logs or DLQ entries may be, in bytes of JSON: a page ends early, with a cursor,
 * beyond it (a thousand events of 1 MB messages would otherwise make one response of over a gigabyte).
 */
export const MAX_PAGE_BYTES = 4 * 1_048_576;

/** Largest message body the service accepts, in bytes (UTF-8), unless a stack is started with another. */
export const MAX_BODY_BYTES = 1_048_576;

/** Methods a message may be delivered with (`Upstash-Method`). */
export const MESSAGE_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE', 'GET', 'HEAD', 'OPTIONS'] as const;
export type MessageMethod = (typeof MESSAGE_METHODS)[number];
