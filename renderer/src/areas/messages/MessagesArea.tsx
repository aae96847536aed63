import { SendIcon } from '../../ui/icons';
import { ComingSoon, LocalStackHint } from '../ComingSoon';

export default function MessagesArea() {
  return (
    <ComingSoon
      title="Messages"
      headline="The message composer is on its way"
      subtitle="Publish, batch, follow deliveries"
      icon={<SendIcon />}
      summary="Compose a message once and see exactly what goes on the wire, then follow it from CREATED to DELIVERED."
      plans={[
        'Composer with every delivery option, live request preview, copy as curl or SDK code',
        'Batch builder and webhook-intake URLs',
        'Logs grouped by message, queues with lag, signing keys',
      ]}
      today={<LocalStackHint service="messages" />}
    />
  );
}
