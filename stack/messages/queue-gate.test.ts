import { describe, expect, it } from 'vitest';
import { QueueGate } from './queue-gate';

interface E {
  seq: number;
}

function gate(stored: Record<string, { parallelism: number; paused: boolean }> = {}) {
  const admitted: number[] = [];
  const queues = new QueueGate<E>({
    settings: (name) => stored[name],
    admit: (entry) => admitted.push(entry.seq),
  });
  return { queues, admitted };
}

describe('queue gate', () => {
  it('admits in FIFO order, at most `parallelism` at once, the next one as each leaves', () => {
    const { queues, admitted } = gate({ q: { parallelism: 2, paused: false } });
    const queue = queues.queue('q');
    const entries = [1, 2, 3, 4].map((seq) => ({ seq }));
    for (const entry of entries) queues.enqueue(queue, entry);
    expect(admitted).toEqual([1, 2]);
    expect(queues.lag('q')).toBe(4);
    queues.leave(queue, entries[1] as E);
    expect(admitted).toEqual([1, 2, 3]);
    queues.leave(queue, entries[0] as E);
    queues.leave(queue, entries[2] as E);
    expect(admitted).toEqual([1, 2, 3, 4]);
    expect(queues.lag('q')).toBe(1);
  });

  it('starts an unknown queue at parallelism 1; a waiting entry that leaves is never admitted', () => {
    const { queues, admitted } = gate();
    const queue = queues.queue('new');
    const [a, b, c] = [{ seq: 1 }, { seq: 2 }, { seq: 3 }];
    queues.enqueue(queue, a);
    queues.enqueue(queue, b);
    queues.enqueue(queue, c);
    queues.leave(queue, b); // cancelled while waiting
    queues.leave(queue, a);
    expect(admitted).toEqual([1, 3]);
  });

  it('admits nothing while paused, and catches up on resume and on more parallelism', () => {
    const { queues, admitted } = gate();
    queues.load([{ name: 'p', parallelism: 1, paused: true }]);
    const queue = queues.queue('p');
    for (const seq of [1, 2, 3]) queues.enqueue(queue, { seq });
    expect(admitted).toEqual([]);
    queues.configure('p', 1, false);
    expect(admitted).toEqual([1]);
    queues.configure('p', 3, false);
    expect(admitted).toEqual([1, 2, 3]);
  });

  it('drains a forgotten queue one at a time and then drops it; admits nothing once stopped', () => {
    const { queues, admitted } = gate({ f: { parallelism: 5, paused: true } });
    const queue = queues.queue('f');
    const [a, b] = [{ seq: 1 }, { seq: 2 }];
    queues.enqueue(queue, a);
    queues.enqueue(queue, b);
    queues.forget('f');
    expect(admitted).toEqual([1]);
    queues.leave(queue, a);
    expect(admitted).toEqual([1, 2]);
    queues.leave(queue, b);
    queues.forget('f');
    expect(queues.lag('f')).toBe(0);
    // Gone: met again, it starts from the stored settings.
    expect(queues.queue('f').paused).toBe(true);

    const stopped = gate();
    stopped.queues.stop();
    stopped.queues.enqueue(stopped.queues.queue('s'), { seq: 9 });
    expect(stopped.admitted).toEqual([]);
  });
});
