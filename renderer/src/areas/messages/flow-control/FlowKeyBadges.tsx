// A key's state at a glance: Paused, and which settings are pinned.
import type { FlowControlInfo } from '../../../../../shared/messages/flow-control';
import { Badge } from '../../../ui/misc';

export function FlowKeyBadges({ info }: { info: FlowControlInfo }) {
  const pinned = [info.isPinnedParallelism ? 'parallelism' : '', info.isPinnedRate ? 'rate' : '']
    .filter(Boolean)
    .join(' + ');
  return (
    <>
      {info.isPaused ? <Badge tone="warning">Paused</Badge> : null}
      {pinned ? <Badge tone="info">Pinned {pinned}</Badge> : null}
    </>
  );
}
