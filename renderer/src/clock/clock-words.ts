// The stack clock in words: how far ahead it is ("+7 d"), how long until something ("in 1 h 59 min") and what
// a due item is ("the delivery of msg_… (run wfr_…)"). Pure, so the status bar, the Advance dialog and the
// Local stack page say it the same way.
import type { DueItem } from '../../../shared/local-stack/clock';

const UNITS = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['min', 60_000],
  ['s', 1_000],
] as const;

/** `7 d`, `1 h 59 min`, `45 s` — the two largest units; `less than a second` below one. */
export function durationWords(ms: number): string {
  let rest = Math.max(0, Math.round(ms));
  const parts: string[] = [];
  for (const [unit, size] of UNITS) {
    if (parts.length === 2) break;
    const count = Math.floor(rest / size);
    if (count > 0 || parts.length > 0) {
      if (count > 0) parts.push(`${count} ${unit}`);
      rest -= count * size;
      if (parts.length > 0 && count === 0) break;
    }
  }
  return parts.length > 0 ? parts.join(' ') : 'less than a second';
}

/** Offsets under a second are noise (the clock is the wall clock): not shown. */
export const SHOWN_OFFSET_MS = 1_000;

/** `+7 d` for the status bar, or undefined when the stack clock is in step with the wall clock. */
export function offsetWords(offsetMs: number): string | undefined {
  return offsetMs >= SHOWN_OFFSET_MS ? `+${durationWords(offsetMs)}` : undefined;
}

/** `in 1 h 59 min`, or `now` once it is due. */
export function untilWords(dueAt: number, now: number): string {
  return dueAt > now ? `in ${durationWords(dueAt - now)}` : 'now';
}

const short = (id: string) => (id.length > 18 ? `${id.slice(0, 16)}…` : id);

/** What a due item is, in a few words (without its time). */
export function dueItemWords(item: DueItem): string {
  switch (item.kind) {
    case 'message': {
      const what =
        item.retried > 0
          ? `retry ${item.retried} of ${short(item.messageId)}`
          : `the delivery of ${short(item.messageId)}`;
      return item.workflowRunId ? `${what} (workflow run ${short(item.workflowRunId)})` : what;
    }
    case 'wait':
      return `the wait for “${item.eventId}” times out (workflow run ${short(item.workflowRunId)})`;
    case 'schedule':
      return `schedule ${item.scheduleId} fires`;
  }
}
