// A failed call's own text in a danger callout under a short title, and what to do: when the service
// refused the profile's token (AccessHelp), or failed on its own side (a 5xx: nothing to fix here, try again);
// nothing while there is no error.
import { errorMessage } from '../bridge/client';
import { Callout } from './misc';
import { AccessHelp } from './service-access';
import { stoppedWaiting } from './Waiting';

export function ErrorCallout({ error, title }: { error: unknown; title?: string }) {
  const status = serviceFault(error);
  return error ? (
    <Callout tone="danger" title={title}>
      {errorText(error)}
      {status ? ` (HTTP ${status}: the service failed on its side — try again in a moment.)` : null}
      <AccessHelp error={error} />
    </Callout>
  ) : null;
}

/** The status of an error the service answered with a 5xx, else undefined. */
function serviceFault(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, status } = error as { code?: unknown; status?: unknown };
  return code === 'SERVICE_ERROR' && typeof status === 'number' && status >= 500 ? status : undefined;
}

/** A bridge error's message, whether it is a BridgeError or the plain data a stream ended with. */
function errorText(error: unknown): string {
  if (stoppedWaiting(error)) return 'Stopped waiting for an answer: Refresh asks again.';
  if (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { message?: unknown }).message === 'string'
  )
    return (error as { message: string }).message;
  return errorMessage(error);
}
