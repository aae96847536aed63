// Restarting the local stack interrupts whatever it is doing, so both ways to ask for it (the Local stack page
// and the command palette) ask first while it runs. Starting a stack that is down needs no question.
import type { StackStatus } from '../../../shared/stack-status';
import { confirm } from '../ui/confirm';

export function isRunning(status: Pick<StackStatus, 'state'> | undefined): boolean {
  return status?.state === 'ready' || status?.state === 'starting';
}

export function confirmStackRestart(): Promise<boolean> {
  return confirm({
    title: 'Restart the local stack?',
    body:
      'Its three services stop and start again. Deliveries and workflow steps in flight are interrupted and ' +
      'retried once it is back (nothing stored is lost); live KV monitors and subscriptions stop.',
    confirmLabel: 'Restart now',
  });
}
