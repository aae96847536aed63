// A service screen's body for the active profile, once the service can be used (see ServiceGate). The
// body is keyed by the profile, so switching profiles starts the screen fresh (filters, selection, open
// streams).
//
//   export default function QueuesTab() {
//     return <ActiveService>{(profile) => <Queues profile={profile} />}</ActiveService>;
//   }
import { Fragment, type ReactNode } from 'react';
import type { ProfileView } from '../../../shared/profiles';
import { ServiceGate } from '../ui/ServiceGate';
import { useActiveProfile, useStackStatus } from './data';

export function ActiveService({
  service,
  header,
  children,
}: {
  service?: 'messages' | 'kv';
  /** Shown above the waiting message (a screen whose page header lives inside `children`). */
  header?: ReactNode;
  children: (profile: ProfileView) => ReactNode;
}) {
  const profile = useActiveProfile();
  const stack = useStackStatus();
  return (
    <ServiceGate profile={profile} stack={stack} service={service} header={header}>
      {(active) => <Fragment key={active.id}>{children(active)}</Fragment>}
    </ServiceGate>
  );
}
