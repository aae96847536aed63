import { InboxIcon } from '../../ui/icons';
import { ComingSoon, LocalStackHint } from '../ComingSoon';

export default function DlqArea() {
  return (
    <ComingSoon
      title="Dead-letter queue"
      headline="DLQ triage is on its way"
      subtitle="Messages and runs that ran out of retries"
      icon={<InboxIcon />}
      summary="Triage failures in bulk: see the failing response, fix the cause, then retry or delete many at once — safely."
      plans={[
        'Filters by URL, group, queue, label and response status',
        'Retry with header overrides; bulk actions with a preview, progress and cancel',
        'Every destructive action asks first',
      ]}
      today={<LocalStackHint service="messages" />}
    />
  );
}
