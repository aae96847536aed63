// A failed call's own text in a danger callout under a short title, and what to do when the service
// refused the profile's token (AccessHelp); nothing while there is no error.
import { errorMessage } from '../bridge/client';
import { Callout } from './misc';
import { AccessHelp } from './service-access';

export function ErrorCallout({ error, title }: { error: unknown; title?: string }) {
  return error ? (
    <Callout tone="danger" title={title}>
      {errorText(error)}
      <AccessHelp error={error} />
    </Callout>
  ) : null;
}

/** A bridge error's message, whether it is a BridgeError or the plain data a stream ended with. */
function errorText(error: unknown): string {
  if (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { message?: unknown }).message === 'string'
  )
    return (error as { message: string }).message;
  return errorMessage(error);
}
