// A failed call's own text in a danger callout under a short title; nothing while there is no error.
import { errorMessage } from '../bridge/client';
import { Callout } from './misc';

export function ErrorCallout({ error, title }: { error: unknown; title?: string }) {
  return error ? (
    <Callout tone="danger" title={title}>
      {errorMessage(error)}
    </Callout>
  ) : null;
}
