// TTL as people read it ("no expiry", "gone", "45 s", "3 m 20 s", "2 h 5 m", "4 d 3 h") and as they type it
// in a TTL dialog (whole seconds).
import { KV_TTL_MAX_SECONDS } from '../../../../../shared/bridge/procedures/kv/key-browser';

export function formatTtl(ttlMs: number): string {
  if (ttlMs === -1) return 'no expiry';
  if (ttlMs < 0) return 'gone';
  const s = Math.ceil(ttlMs / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} m ${s % 60} s`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h} h ${m % 60} m`;
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}

/** "Seconds from now" as typed in a TTL dialog: a whole number from 1 to KV_TTL_MAX_SECONDS, else undefined. */
export function parseTtlSeconds(text: string): number | undefined {
  const seconds = Number(text.trim());
  return text.trim() !== '' && Number.isInteger(seconds) && seconds >= 1 && seconds <= KV_TTL_MAX_SECONDS
    ? seconds
    : undefined;
}
