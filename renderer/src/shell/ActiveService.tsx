// The one way a screen gets the active profile: its body, rendered for that profile once the service can
// be used (see ServiceGate). The body is keyed by the profile, so switching profiles starts the screen
// fresh (filters, selection, open streams, results). Only the shell itself reads useActiveProfile().
//
//   export default function QueuesTab() {
//     return <ActiveService>{(profile) => <Queues profile={profile} />}</ActiveService>;
//   }
//
// `gate="profile"` is for screens that edit the profile's own drafts (composer, batch, webhook intake):
// they open as soon as a profile is active, while the local stack still starts or before the profile has
// a token — sending then says why it was refused.
import { Fragment, type ReactNode } from 'react';
import type { ProfileView } from '../../../shared/profiles';
import { ServiceGate } from '../ui/ServiceGate';
import { useActiveProfile, useStackStatus } from './data';

export function ActiveService({
  service,
  gate = 'service',
  header,
  children,
}: {
  service?: 'messages' | 'kv';
  /** What the body waits for: the service usable (default), or only an active profile. */
  gate?: 'service' | 'profile';
  /** Shown above the waiting message (a screen whose page header lives inside `children`). */
  header?: ReactNode;
  children: (profile: ProfileView) => ReactNode;
}) {
  const profile = useActiveProfile();
  const stack = useStackStatus();
  return (
    <ServiceGate
      profile={profile}
      stack={stack}
      service={service}
      needsService={gate === 'service'}
      header={header}
    >
      {(active) => <Fragment key={active.id}>{children(active)}</Fragment>}
    </ServiceGate>
  );
}
