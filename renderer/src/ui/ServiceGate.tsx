// Shown instead of a service screen while the service cannot be used: no active profile yet, the local
// stack still starting (or failed), or a profile without the service's URL or token (message API or KV).
// A screen that only edits the profile's own drafts passes `needsService={false}` and waits for the
// profile alone. Past the gate, the screen's profile and service are in ServiceAccessContext for its error
// callouts. Screens reach it through shell/ActiveService.tsx.
//
// A screen already shown that the gate closes again (the local stack exited and restarts, or was stopped)
// is hidden, not dropped: what the user typed (a command, channels, a pipeline), the lines a monitor kept
// and the screen's place stay, its effects (streams, polling) stop, and it comes back as it was when the
// service does — its queries and streams then pick up again by themselves.
import { Activity, type ReactNode, useState } from 'react';
import type { ProfileView } from '../../../shared/profiles';
import type { StackStatus } from '../../../shared/stack-status';
import { Callout, Spinner } from './misc';
import { ServiceAccessContext } from './service-access';

export function ServiceGate({
  profile,
  stack,
  header,
  service = 'messages',
  needsService = true,
  children,
}: {
  /** Which service the screen needs (default: the message API). */
  service?: 'messages' | 'kv';
  /** False: shown once a profile is active, even while the service cannot be reached yet. */
  needsService?: boolean;
  profile: ProfileView | undefined;
  stack: StackStatus | undefined;
  /** Shown above the waiting message (a screen whose page header lives inside `children`). */
  header?: ReactNode;
  children: (profile: ProfileView) => ReactNode;
}) {
  const waiting = needsService ? waitingFor(profile, stack, service) : null;
  // The profile whose body has been shown here (state kept from render to render, set while rendering).
  const [shown, setShown] = useState<string | null>(null);
  if (profile && !waiting && shown !== profile.id) setShown(profile.id);
  const waitingBody = (
    <>
      {header}
      <div className="page-body">{waiting ?? <Spinner />}</div>
    </>
  );
  if (!profile || (waiting && shown !== profile.id)) return waitingBody;
  // The screen's errors can then say what to do when the service refuses this profile (service-access.tsx).
  return (
    <>
      {waiting ? waitingBody : null}
      <Activity mode={waiting ? 'hidden' : 'visible'}>
        <ServiceAccessContext.Provider value={{ profile: { id: profile.id, name: profile.name }, service }}>
          {children(profile)}
        </ServiceAccessContext.Provider>
      </Activity>
    </>
  );
}

function waitingFor(
  profile: ProfileView | undefined,
  stack: StackStatus | undefined,
  service: 'messages' | 'kv',
): ReactNode {
  if (!profile) return null;
  if (profile.id === 'local' && stack?.state !== 'ready') {
    const failed = stack?.state === 'failed' || stack?.state === 'unavailable';
    return (
      <Callout
        tone={failed ? 'danger' : 'info'}
        // While it is not failed, the supervisor's own sentence says what it is doing: starting, or why it
        // restarts ("The local stack exited (signal SIGKILL); restarting…").
        title={failed ? 'The local stack is not running.' : (stack?.message ?? 'Starting the local stack…')}
      >
        {failed ? (
          <>
            {stack?.message} See <a href="#/stack">Local stack</a> for its log.
          </>
        ) : (
          'This screen loads as soon as it is ready.'
        )}
      </Callout>
    );
  }
  if (service === 'kv') {
    const hasToken = profile.secrets.kvToken.hasValue || profile.secrets.kvReadOnlyToken.hasValue;
    if (profile.kvUrl && hasToken) return null;
    return (
      <Callout tone="warning" title={`Profile “${profile.name}” cannot reach the KV API yet.`}>
        It needs {profile.kvUrl ? 'a KV token (standard or read-only)' : 'a KV URL'}: set it in{' '}
        <a href={`#/profiles/${encodeURIComponent(profile.id)}`}>Profiles</a>.
      </Callout>
    );
  }
  if (!profile.messagesUrl || !profile.secrets.messageToken.hasValue) {
    return (
      <Callout tone="warning" title={`Profile “${profile.name}” cannot reach the message API yet.`}>
        It needs {profile.messagesUrl ? 'a message token' : 'a message API URL'}: set it in{' '}
        <a href={`#/profiles/${encodeURIComponent(profile.id)}`}>Profiles</a>.
      </Callout>
    );
  }
  return null;
}
