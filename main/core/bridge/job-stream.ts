// How a long job (a bulk retry, restart or delete) ends its stream, the same for every service: its summary
// as a final `done` event, a BridgeError as itself, anything else as a generic INTERNAL error whose details
// go to the console log rather than to the renderer.
import { BridgeError } from '../../../shared/bridge/errors';
import type { JobDone } from '../../../shared/bridge/job-events';
import type { StreamSink } from './router';

export function endStreamWithJob<Summary>(
  run: Promise<Summary>,
  sink: StreamSink<JobDone<Summary>>,
  onUnexpected: (error: unknown) => void,
): Promise<void> {
  return run
    .then((summary) => {
      sink.push({ type: 'done', summary });
      sink.end();
    })
    .catch((error: unknown) => {
      if (error instanceof BridgeError) return sink.end(error.toData());
      onUnexpected(error);
      sink.end({
        code: 'INTERNAL',
        message: 'The bulk job hit an unexpected error. Details are in the console log.',
      });
    });
}
