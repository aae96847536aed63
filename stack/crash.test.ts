// At-least-once across a crash: thousands of messages in flight, `kill -9` of the stack process, a restart on
// the same data dir, and every message that was acknowledged with 200 arrives at the sink.
import { Agent, request } from 'undici';
import { expect, it } from 'vitest';
import { crashTestResources } from './crash-test-support';
import { eventually, startSink } from './messages/test-support';
import { freePortArgs } from './test-process';

const TOTAL = 5000;
const resources = crashTestResources();

// Both durability modes: `normal` commits on the main thread, `full` in the writer thread with an fsync each.
it.each(['normal', 'full'])(
  'delivers every acknowledged message after kill -9 (durability %s, 3000+ acknowledged when it dies)',
  async (durability) => {
    const dataDir = resources.dataDir('switchyard-crash-');
    // A slowish sink keeps plenty of messages in flight when the stack dies.
    const sink = await startSink(() => ({ wait: new Promise((resolve) => setTimeout(resolve, 50)) }));
    const delivered = new Map<string, number>();
    const count = (id: string): void => void delivered.set(id, (delivered.get(id) ?? 0) + 1);
    const args = [
      ...freePortArgs(dataDir),
      '--max-concurrency',
      '32',
      '--log-level',
      'warn',
      '--durability',
      durability,
    ];
    const agent = new Agent({ connections: 32 });
    try {
      // A bound, not a budget: under a loaded CI machine a start (and the restart's recovery of thousands of
      // acknowledged messages) can take longer than spawnStack's default 20 s; the test's own timeout still holds.
      const first = resources.spawn(args, { timeoutMs: 60_000 });
      const ready = await first.ready;

      const acknowledged = new Set<string>();
      let next = 0;
      let killed = false;
      let deliveredAtKill = 0;
      const publisher = async (): Promise<void> => {
        while (next < TOTAL && !killed) {
          const n = next++;
          // A third of them are delayed past the crash, so they are pending (not in flight) when it happens.
          // 15 s, not 2 s: on a loaded machine publishing 3,000 can take longer than a short delay, and
          // the early delayed ones were delivered before the kill (only 516 of 3,000 missing once).
          const headers: Record<string, string> = { authorization: `Bearer ${ready.messages.token}` };
          if (n % 3 === 0) headers['upstash-delay'] = '15s';
          try {
            const response = await request(`${ready.messages.url}/v2/publish/${sink.url}/crash/${n}`, {
              method: 'POST',
              headers,
              body: `message ${n}`,
              dispatcher: agent,
            });
            const body = (await response.body.json()) as { messageId?: string };
            if (response.statusCode === 200 && body.messageId) acknowledged.add(body.messageId);
          } catch {
            // The stack died under this request: it was never acknowledged.
          }
        }
      };
      const kill = (async () => {
        await eventually(
          () => acknowledged.size >= 3000 && sink.received.length >= 100,
          '3000 acknowledged messages and 100 deliveries before the crash',
          // 60 s: with the other test files running beside it at load ~25, publishing 3,000 once took over 30 s.
          60_000,
        );
        killed = true;
        deliveredAtKill = sink.received.length;
        first.child.kill('SIGKILL');
      })();
      await Promise.all([...Array.from({ length: 32 }, publisher), kill]);
      expect((await first.exit).signal).toBe('SIGKILL');
      const beforeRestart = new Set(sink.received.map((r) => r.headers['upstash-message-id'] as string));
      // The crash really happened mid-flight: many acknowledged messages had not arrived yet.
      expect(acknowledged.size).toBeGreaterThanOrEqual(3000);
      const missing = [...acknowledged].filter((id) => !beforeRestart.has(id));
      expect(missing.length).toBeGreaterThan(500);
      expect(deliveredAtKill).toBeGreaterThanOrEqual(100);

      const second = resources.spawn(args, { timeoutMs: 60_000 });
      await second.ready;
      await eventually(
        () => {
          for (const received of sink.received.splice(0))
            count(received.headers['upstash-message-id'] as string);
          return [...acknowledged].every((id) => delivered.has(id));
        },
        `all ${acknowledged.size} acknowledged messages to arrive after the restart`,
        90_000,
      );
      const lost = [...acknowledged].filter((id) => !delivered.has(id));
      expect(lost).toEqual([]);
      const { code } = await second.stop();
      expect(code).toBe(0);
    } finally {
      await agent.close();
      await sink.close();
    }
  },
  // The delayed third arrives 15 s after it was published, on top of the publishing and the restart.
  180_000,
);
