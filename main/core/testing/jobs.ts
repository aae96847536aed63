// Running jobs in main's tests the way the renderer does: open the job through the router, take the
// preview, start it with the count it listed (and the start options), and collect every event until it
// ends. Stopping early closes it, as a dialog being closed does.
import type { BridgeErrorData } from '../../../shared/bridge/errors';
import type { JobEvent, JobSummary } from '../../../shared/bridge/job';
import type { Router } from '../bridge/router';
import { JobJournal } from '../jobs/journal';
import { JobRunner } from '../jobs/runner';

/** A runner with its journal in `dir`. */
export function testJobRunner(dir: string, now?: () => number): JobRunner {
  return new JobRunner(new JobJournal(dir, { now }), {
    profileName: (profileId) => `profile ${profileId}`,
    logError: (message, error) => {
      throw new Error(`${message}: ${String(error)}`);
    },
    now,
  });
}

export interface JobRun {
  events: JobEvent[];
  error?: BridgeErrorData;
  /** The preview count (the last `collecting` event's). */
  found?: number;
  summary?: JobSummary;
}

export function runJob(
  router: Router,
  name: string,
  input: unknown,
  options: {
    /** The start options; `false` stops after the preview without starting. */
    start?: unknown;
    /** Close the job (cancel) when this says so. */
    stopWhen?: (event: JobEvent) => boolean;
    /** What the start says the user confirmed (default: what the preview listed). */
    confirmed?: number;
  } = {},
): Promise<JobRun> {
  const run: JobRun = { events: [] };
  return new Promise((resolve, reject) => {
    let control: Awaited<ReturnType<Router['open']>> | undefined;
    let closed = false;
    const close = () => {
      closed = true;
      control?.stop();
      // The renderer has stopped listening; give a chunk in flight time to land, as in the console.
      setTimeout(() => resolve(run), 300);
    };
    router
      .open(name, input, {
        push: (raw) => {
          const event = raw as JobEvent;
          run.events.push(event);
          if (event.type === 'done') run.summary = event.summary as JobSummary;
          if (closed) return;
          if (event.type === 'collecting' && event.done) {
            run.found = event.found;
            if (options.start === false) return close();
            // The start travels as a frame of its own, after this event reached the renderer.
            setTimeout(() => control?.start?.(options.start ?? {}, options.confirmed ?? event.found), 0);
          }
          if (options.stopWhen?.(event)) close();
        },
        end: (error) => {
          if (error) run.error = error;
          if (!closed) resolve(run);
        },
      })
      .then((opened) => (control = opened), reject);
  });
}

/**
 * The summary of a job on `count` items whose first ask the service did and whose answer got lost (a 503, a
 * reset after it acted): each counted as done, `unconfirmed`, none failed and nothing in `created`.
 */
export function doneByLostAnswers(count: number): Partial<JobSummary> {
  return {
    status: 'done',
    total: count,
    succeeded: count,
    unconfirmed: count,
    failed: 0,
    failures: [],
    created: [],
  };
}
