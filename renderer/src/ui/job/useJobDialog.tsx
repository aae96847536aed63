// How a screen opens a job's dialog. Every service's dialog (MessageDlqJobDialog, ScheduleJobDialog, …)
// takes the same props: the request the screen built from its selection or filters, and what it says back.
// The screen keeps which request is open; closing the dialog forgets it, so the next opening lists afresh.
import { type ComponentType, type ReactNode, useState } from 'react';
import type { ProfileView } from '../../../../shared/profiles';

/** The props of a service's job dialog: the rest (procedure, words, overrides) is the dialog's own. */
export interface JobRequestProps<Request> {
  profile: ProfileView;
  request: Request;
  onClose: () => void;
  /** The job ended or was cancelled after it started: what it acted on has changed. */
  onEnded?: () => void;
}

/**
 * The screen's job dialog and the function that opens it with a request. `onEnded` hears which request
 * ended, so the screen can refresh or close what the job may have changed.
 *
 *   const [jobDialog, openJob] = useJobDialog(ScheduleJobDialog, profile, () => selection.clear());
 *   <Button onClick={() => openJob({ action: 'pause', target, description })}>Pause…</Button>
 *   {jobDialog}
 */
export function useJobDialog<Request>(
  Dialog: ComponentType<JobRequestProps<Request>>,
  profile: ProfileView,
  onEnded?: (request: Request) => void,
): [dialog: ReactNode, open: (request: Request) => void] {
  const [request, setRequest] = useState<Request | null>(null);
  const dialog =
    request === null ? null : (
      <Dialog
        profile={profile}
        request={request}
        onClose={() => setRequest(null)}
        onEnded={onEnded ? () => onEnded(request) : undefined}
      />
    );
  // The updater form: a request is stored as it is, whatever its type.
  return [dialog, (next) => setRequest(() => next)];
}
