// What the monitor screen keeps and shows, without React: a ring buffer with a hard cap on lines kept in
// memory (the oldest are evicted and counted), the filters (command, key pattern, client, own traffic),
// and a per-second line counter for the lines/s chart.
import type { KvMonitorEvent, KvMonitorLine } from '../../../../../shared/bridge/procedures/kv/live';
import { globToRegExp } from '../../../../../shared/kv/monitor';

/** A kept line with its arrival sequence number (stable row keys for the virtual list). */
export interface KeptLine extends KvMonitorLine {
  seq: number;
}

export class LineRing {
  private items: (KeptLine | undefined)[];
  private start = 0;
  private size = 0;
  private nextSeq = 0;
  /** Lines pushed out by the cap since the last clear. */
  evicted = 0;

  constructor(private cap: number) {
    this.items = new Array<KeptLine | undefined>(cap);
  }

  get capacity(): number {
    return this.cap;
  }

  get length(): number {
    return this.size;
  }

  push(line: KvMonitorLine): void {
    const kept: KeptLine = { ...line, seq: this.nextSeq++ };
    if (this.size < this.cap) {
      this.items[(this.start + this.size) % this.cap] = kept;
      this.size++;
    } else {
      this.items[this.start] = kept;
      this.start = (this.start + 1) % this.cap;
      this.evicted++;
    }
  }

  /** Oldest first. */
  toArray(): KeptLine[] {
    const out = new Array<KeptLine>(this.size);
    for (let i = 0; i < this.size; i++) out[i] = this.items[(this.start + i) % this.cap]!;
    return out;
  }

  /** A new cap keeps the newest lines that fit. */
  resize(cap: number): void {
    const lines = this.toArray();
    const keep = lines.slice(Math.max(0, lines.length - cap));
    this.evicted += lines.length - keep.length;
    this.cap = cap;
    this.items = new Array<KeptLine | undefined>(cap);
    this.start = 0;
    this.size = 0;
    for (const line of keep) {
      this.items[this.size++] = line;
    }
  }

  clear(): void {
    this.items = new Array<KeptLine | undefined>(this.cap);
    this.start = 0;
    this.size = 0;
    this.evicted = 0;
  }
}

export interface MonitorFilters {
  /** Command names, space or comma separated (any case): `get set`. Empty: all. A leading `-` excludes. */
  commands: string;
  /** Redis glob matched against every argument after the command name. */
  keyPattern: string;
  /** Text the client descriptor must contain (`lua`, an address, a token user such as `read-only`). */
  client: string;
  /** Show the console's own commands (hidden by default). */
  showOwn: boolean;
}

export const DEFAULT_FILTERS: MonitorFilters = { commands: '', keyPattern: '', client: '', showOwn: false };

/** A predicate for the filters, compiled once per change (the list re-filters thousands of lines). */
export function compileFilters(filters: MonitorFilters): (line: KvMonitorLine) => boolean {
  const words = filters.commands
    .split(/[\s,]+/)
    .map((word) => word.trim().toLowerCase())
    .filter(Boolean);
  const include = new Set(words.filter((w) => !w.startsWith('-')));
  const exclude = new Set(words.filter((w) => w.startsWith('-')).map((w) => w.slice(1)));
  const key = globToRegExp(filters.keyPattern.trim());
  const client = filters.client.trim().toLowerCase();
  return (line) => {
    if (!filters.showOwn && line.own) return false;
    const name = (line.args[0] ?? '').toLowerCase();
    if (include.size > 0 && !include.has(name)) return false;
    if (exclude.has(name)) return false;
    if (client && !line.client.toLowerCase().includes(client)) return false;
    if (key) {
      let hit = false;
      for (let i = 1; i < line.args.length && !hit; i++) hit = key.test(line.args[i]!);
      if (!hit) return false;
    }
    return true;
  };
}

/** Lines received per second over the last `seconds` seconds (the chart's data). */
export class RateCounter {
  private readonly buckets: number[];
  private newest: number;

  constructor(
    private readonly seconds = 60,
    now = Date.now(),
  ) {
    this.buckets = new Array<number>(seconds).fill(0);
    this.newest = Math.floor(now / 1000);
  }

  add(count: number, now = Date.now()): void {
    this.advance(now);
    this.buckets[this.buckets.length - 1]! += count;
  }

  /** Oldest first; the last entry is the current (partial) second. */
  series(now = Date.now()): number[] {
    this.advance(now);
    return [...this.buckets];
  }

  private advance(now: number): void {
    const second = Math.floor(now / 1000);
    const steps = Math.min(second - this.newest, this.seconds);
    for (let i = 0; i < steps; i++) {
      this.buckets.shift();
      this.buckets.push(0);
    }
    if (second > this.newest) this.newest = second;
  }
}

/** A line as the export writes it in JSON Lines form. */
export function lineJson(line: KvMonitorLine): string {
  return JSON.stringify({
    at: new Date(line.at).toISOString(),
    db: line.db,
    client: line.client,
    args: line.args,
    own: line.own,
  });
}

export interface MonitorSnapshot {
  /** What the list shows from: the kept lines, or the frozen copy while paused. */
  kept: KeptLine[];
  /** Lines kept now (keeps counting while paused). */
  keptNow: number;
  evicted: number;
  /** Dropped by the bridge's bounded buffer in main (the renderer did not keep up). */
  bridgeDropped: number;
  /** Dropped by the service for a slow reader. */
  serverDropped: number;
  /** Lines per second, oldest first, the last entry the current partial second. */
  series: number[];
  paused: boolean;
  /** The service confirmed the current stream (its `"OK"`): commands from now on are seen. */
  connected: boolean;
}

/**
 * The monitor's state outside React (it changes up to thousands of times a second): batches go in, and a
 * new immutable snapshot is published at most once per `schedule` tick, for `useSyncExternalStore`. In the
 * app a tick is the first animation frame after PUBLISH_INTERVAL_MS: each snapshot copies and re-filters
 * every kept line and re-lays out the list, and at 20,000 lines/s doing that on every frame kept the page
 * busy for half of each second (`npm run bench -- ui --only monitor`). Nobody reads faster than this anyway.
 */
/** How often the list may change while lines pour in (a few times a second reads as live). */
export const PUBLISH_INTERVAL_MS = 150;

export class MonitorStore {
  private readonly ring: LineRing;
  private readonly rate = new RateCounter(60);
  private bridgeDropped = 0;
  private serverDropped = 0;
  private frozen: KeptLine[] | null = null;
  private connected = false;
  private snapshot: MonitorSnapshot;
  private readonly listeners = new Set<() => void>();
  private pending = false;

  constructor(
    cap: number,
    private readonly schedule: (run: () => void) => void = (run) =>
      setTimeout(() => requestAnimationFrame(run), PUBLISH_INTERVAL_MS),
  ) {
    this.ring = new LineRing(cap);
    this.snapshot = this.build();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): MonitorSnapshot => this.snapshot;

  receive(events: readonly KvMonitorEvent[], dropped: number): void {
    let lines = 0;
    for (const event of events) {
      if (event.kind === 'line') {
        this.ring.push(event);
        lines++;
      } else if (event.kind === 'serverDropped') this.serverDropped += event.count;
      else if (event.kind === 'open') this.connected = true;
    }
    this.bridgeDropped += dropped;
    this.rate.add(lines + dropped);
    this.publish();
  }

  /** A new stream is starting (or the current one ended): not connected until its `open` event. */
  disconnected(): void {
    this.connected = false;
    this.publish(true);
  }

  setPaused(paused: boolean): void {
    this.frozen = paused ? this.ring.toArray() : null;
    this.publish(true);
  }

  resize(cap: number): void {
    this.ring.resize(cap);
    this.publish(true);
  }

  clear(): void {
    this.ring.clear();
    this.bridgeDropped = 0;
    this.serverDropped = 0;
    if (this.frozen) this.frozen = [];
    this.publish(true);
  }

  /** Moves the chart on when no line arrives. */
  tick(): void {
    this.publish();
  }

  private publish(now = false): void {
    if (now) {
      this.emit();
      return;
    }
    if (this.pending) return;
    this.pending = true;
    this.schedule(() => {
      this.pending = false;
      this.emit();
    });
  }

  private emit(): void {
    this.snapshot = this.build();
    for (const listener of this.listeners) listener();
  }

  private build(): MonitorSnapshot {
    return {
      kept: this.frozen ?? this.ring.toArray(),
      keptNow: this.ring.length,
      evicted: this.ring.evicted,
      bridgeDropped: this.bridgeDropped,
      serverDropped: this.serverDropped,
      series: this.rate.series(),
      paused: this.frozen !== null,
      connected: this.connected,
    };
  }
}
