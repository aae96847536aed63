// The failed delivery attempts of a step or of the failure function: number, status, time and the
// service's error, and (where the panel shows bodies) each attempt's response body.
import type { ReactNode } from 'react';
import type { StepError } from '../../../../../shared/workflows/types';
import { formatTime } from '../../../ui/format';

export function FailedAttempts({
  errors,
  body,
}: {
  errors: StepError[];
  /** The attempt's response body, as the panel renders bodies. */
  body?: (error: StepError, index: number) => ReactNode;
}) {
  return (
    <ol className="wf-attempts" aria-label="Failed attempts">
      {errors.map((error, index) => (
        <li key={`${error.time}-${index}`} className="wf-attempt">
          <div className="wf-attempt-head">
            <span className="mono">#{index + 1}</span>
            <span className="mono">{error.status || 'no response'}</span>
            <span className="faint">{formatTime(error.time)}</span>
          </div>
          <div className="wf-attempt-error">{error.error}</div>
          {body?.(error, index)}
        </li>
      ))}
    </ol>
  );
}
