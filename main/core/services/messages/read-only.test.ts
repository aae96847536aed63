// The console core as the app builds it: every procedure of the message operations that writes is refused
// for a read-only profile in main — no request reaches the service — while reads go through.
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../../../shared/testing/temp-dir';
import { useStackBehindProxy } from '../test-stack/real-stack';
import * as readOnly from '../test-stack/read-only';

const CALL_SAMPLES: readOnly.Samples = {
  'messages.urlGroups.addEndpoints': { name: 'g', endpoints: [{ url: 'http://127.0.0.1:9/x' }] },
  'messages.urlGroups.removeEndpoints': { name: 'g', endpoints: [{ url: 'http://127.0.0.1:9/x' }] },
  'messages.urlGroups.delete': { name: 'g' },
  'messages.urlGroups.setHeaders': { name: 'g', headers: { 'Upstash-Retries': ['1'] } },
  'messages.queues.upsert': { name: 'q', parallelism: 1, paused: false },
  'messages.queues.setPaused': { name: 'q', paused: true },
  'messages.queues.delete': { name: 'q' },
  'messages.dlq.retry': { dlqId: '1-0' },
  'messages.dlq.delete': { dlqId: '1-0' },
  'messages.signingKeys.rotate': {},
  'messages.schedules.save': { form: { cron: '* * * * *', message: { url: 'http://127.0.0.1:9/x' } } },
  'messages.schedules.setPaused': { scheduleId: 's', paused: true },
  'messages.schedules.delete': { scheduleId: 's' },
  'messages.schedules.trigger': { scheduleId: 's' },
  'messages.flowControl.setPaused': { key: 'k', paused: true },
  'messages.flowControl.pin': { key: 'k', parallelism: 1 },
  'messages.flowControl.unpin': { key: 'k', parallelism: true, rate: false },
  'messages.flowControl.resetRate': { key: 'k' },
};
/** Streams and jobs: both refused when opened. */
const STREAM_SAMPLES: readOnly.Samples = {
  'messages.logs.job': { target: { ids: ['msg_1'] } },
  'messages.dlq.job': { action: 'retry', target: { ids: ['1-0'] } },
  'messages.flowControl.job': { action: 'pause', target: { ids: ['k'] } },
  'messages.schedules.job': { action: 'delete', target: { ids: ['s'] } },
};

describe('read-only profiles, enforced in main', () => {
  const tempDir = useTempDirs();
  const env = useStackBehindProxy();

  it('covers every write procedure of the message operations', () => {
    expect(
      readOnly.writeProcedureNames((name) =>
        /^messages\.(urlGroups|logs|queues|dlq|signingKeys|schedules|flowControl)\./.test(name),
      ),
    ).toEqual([...Object.keys(CALL_SAMPLES), ...Object.keys(STREAM_SAMPLES)].sort());
  });

  it('refuses them without sending anything, and still reads', () =>
    readOnly.withReadOnlyProfile(tempDir(), env, async (core, profileId) => {
      await readOnly.expectRefused(core, profileId, CALL_SAMPLES, STREAM_SAMPLES);
      expect(env.proxy.requests).toEqual([]);

      for (const name of [
        'messages.urlGroups.list',
        'messages.queues.list',
        'messages.dlq.list',
        'messages.logs.list',
        'messages.signingKeys.get',
        'messages.schedules.list',
        'messages.flowControl.list',
      ]) {
        expect((await core.router.call(name, { profileId })).ok, name).toBe(true);
      }
      // The flow-control list is two reads: the keys and the global parallelism.
      expect(env.proxy.requests.map((r) => r.method)).toEqual(Array(8).fill('GET'));
    }));
});
