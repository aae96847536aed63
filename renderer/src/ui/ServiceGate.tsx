// Shown instead of a service screen while the service cannot be used: no active profile yet, the local
// stack still starting (or failed), or a profile without a message API URL or token.
import type { ReactNode } from 'react';
import type { ProfileView } from '../../../shared/profiles';
import type { StackStatus } from '../../../shared/stack-status';
import { Callout, Spinner } from './misc';

export function ServiceGate({
  profile,
  stack,
  children,
}: {
  profile: ProfileView | undefined;
  stack: StackStatus | undefined;
  children: (profile: ProfileView) => ReactNode;
}) {
  if (!profile) {
    return (
      <div className="page-body">
        <Spinner />
      </div>
    );
  }
  if (profile.id === 'local' && stack?.state !== 'ready') {
    const failed = stack?.state === 'failed' || stack?.state === 'unavailable';
    return (
      <div className="page-body">
        <Callout
          tone={failed ? 'danger' : 'info'}
          title={failed ? 'The local stack is not running.' : 'Starting the local stack…'}
        >
          {failed ? (
            <>
              {stack?.message} See <a href="#/stack">Local stack</a> for its log.
            </>
          ) : (
            'This screen loads as soon as it is ready.'
          )}
        </Callout>
      </div>
    );
  }
  if (!profile.messagesUrl || !profile.secrets.messageToken.hasValue) {
    return (
      <div className="page-body">
        <Callout tone="warning" title={`Profile “${profile.name}” cannot reach the message API yet.`}>
          It needs {profile.messagesUrl ? 'a message token' : 'a message API URL'}: set it in{' '}
          <a href={`#/profiles/${encodeURIComponent(profile.id)}`}>Profiles</a>.
        </Callout>
      </div>
    );
  }
  return <>{children(profile)}</>;
}
