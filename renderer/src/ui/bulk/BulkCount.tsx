// The preview's count line of a bulk job: "Delete entries matching label nightly: 250 entries." while
// the count comes, the count (or why it could not be had), and a notice when nothing matches.

import { ErrorCallout } from '../ErrorCallout';
import { Callout, Spinner } from '../misc';

export function BulkCount({
  verb,
  description,
  total,
  count,
  unit,
}: {
  verb: string;
  description: string;
  /** Known up front for listed ids; from the count query for filters. */
  total: number | undefined;
  count: { data?: { capped?: boolean }; error: unknown };
  /** "250 entries", "3 runs". */
  unit: (total: number) => string;
}) {
  return (
    <>
      <p>
        {verb} <strong>{description}</strong>:{' '}
        {total !== undefined ? (
          <strong data-testid="bulk-count">{unit(total)}</strong>
        ) : count.error ? null : (
          <span className="muted">
            <Spinner label="Counting" /> counting…
          </span>
        )}
        {count.data?.capped ? ' (at least; counting stopped there)' : ''}.
      </p>
      <ErrorCallout error={count.error} title="Could not count the entries." />
      {total === 0 ? <Callout tone="info">Nothing to do: no entry matches.</Callout> : null}
    </>
  );
}
