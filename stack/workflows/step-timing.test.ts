import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { stepTiming } from './step-timing';

describe('step timing probe', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('pairs a publish with its delivery whichever end comes first, by kind', () => {
    const dir = mkdtempSync(join(tmpdir(), 'step-timing-'));
    dirs.push(dir);
    const file = join(dir, 'samples.json');
    const timing = stepTiming(file);
    const at = performance.now();
    timing.arrived('workflow', 'msg_a', at - 5);
    timing.leaving('msg_a');
    // A message due now leaves before its publish handler has returned its id.
    timing.leaving('msg_b');
    timing.arrived('message', 'msg_b', at - 1_000);
    // A retry of an already measured message is not a hop.
    timing.leaving('msg_a');
    timing.close();
    const samples = JSON.parse(readFileSync(file, 'utf8')) as Record<string, number[]>;
    expect(samples.workflow).toHaveLength(1);
    expect(samples.workflow?.[0]).toBeGreaterThanOrEqual(5);
    expect(samples.message).toHaveLength(1);
    expect(samples.message?.[0]).toBeGreaterThanOrEqual(1_000);
  });

  it('is off without a file', () => {
    const timing = stepTiming('');
    timing.arrived('workflow', 'msg_a', 0);
    timing.leaving('msg_a');
    expect(() => timing.close()).not.toThrow();
  });
});
