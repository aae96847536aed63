// The local-only extension's writes (stack/local/), in the stack's one registry (stack/writes.ts) so that they
// commit through the same group-commit writer as every other write.
import type { StackStore } from '../store/stack-store';

/** The settings key of the stack clock's offset (stack/clock.ts). */
export const CLOCK_OFFSET_KEY = 'clock.offsetMs';

export const LOCAL_WRITES = {
  /** Persists the clock's offset before the clock moves, so that a restart never moves time back. */
  setClockOffset: (store: StackStore, offsetMs: number) =>
    store.settings.set(CLOCK_OFFSET_KEY, String(offsetMs)),
};

/** The offset a previous run of the stack left (0 for a new data dir, or an unreadable value). */
export function savedClockOffset(store: StackStore): number {
  const value = Number(store.settings.get(CLOCK_OFFSET_KEY) ?? 0);
  return Number.isFinite(value) && value > 0 ? value : 0;
}
