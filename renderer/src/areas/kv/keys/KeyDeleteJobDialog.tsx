// KV delete by pattern as a job (ui/job): the user writes the MATCH pattern (the browser's type filter comes
// along), main lists the matching keys with SCAN — that list is the preview count, and exactly what the
// job deletes — then UNLINKs them in chunks with progress. An empty or match-everything pattern is refused
// (here and by main's schema); a production profile asks for its name; closing the dialog cancels.
import { useState } from 'react';
import {
  KV_DELETE_CHUNK,
  KV_MATCH_ALL_REFUSAL,
  matchesEveryKey,
} from '../../../../../shared/bridge/procedures/kv/delete-job';
import type { KvType } from '../../../../../shared/bridge/procedures/kv/key-browser';
import { TextField } from '../../../ui/fields';
import { plural } from '../../../ui/format';
import { JobDialog } from '../../../ui/job/JobDialog';
import type { JobRequestProps } from '../../../ui/job/useJobDialog';

const keys = (count: number) => plural(count, 'key');

/** Where the dialog starts: the browser's MATCH pattern (editable here) and its type filter (kept). */
export interface KeyDeleteRequest {
  pattern: string;
  type?: KvType;
}

export function KeyDeleteJobDialog({ request, ...dialog }: JobRequestProps<KeyDeleteRequest>) {
  const { type } = request;
  const [pattern, setPattern] = useState(request.pattern);
  const [listed, setListed] = useState<string | null>(null);
  const trimmed = pattern.trim();
  const problem = !trimmed
    ? 'a pattern is needed'
    : matchesEveryKey(trimmed)
      ? KV_MATCH_ALL_REFUSAL
      : undefined;
  const description = `every key matching ${listed ?? trimmed}${type ? ` of type ${type}` : ''}`;
  const input =
    listed === null
      ? null
      : {
          description,
          target: { filters: { pattern: listed, ...(type ? { type } : {}) } },
        };

  return (
    <JobDialog
      {...dialog}
      procedure="kv.keys.job"
      input={input}
      title="Delete keys by pattern"
      verb="Delete"
      unit={keys}
      description={description}
      danger
      setup={
        <TextField
          label="MATCH pattern"
          mono
          value={pattern}
          autoFocus
          disabled={listed !== null}
          error={pattern ? problem : undefined}
          hint={type ? `Only keys of type ${type} (the browser's type filter).` : 'Glob-style: * ? [abc]'}
          onChange={(event) => setPattern(event.target.value)}
        />
      }
      setupAction={{
        label: 'Count matching keys',
        disabled: problem !== undefined,
        onClick: () => setListed(trimmed),
      }}
      preview={
        <p className="muted">
          The keys listed are removed with UNLINK, {KV_DELETE_CHUNK} per request; this cannot be undone. A key
          that expires or is deleted meanwhile is counted as already gone.
        </p>
      }
      cappedNote="The job goes on walking the keyspace past the listing and deletes every key that matches."
      runningHint="Cancel stops before the next UNLINK; one already sent completes."
      stoppedHint="Keys not reached are still there; resume the job from Jobs."
      verbed="deleted"
      itemLabel="Key"
    />
  );
}
