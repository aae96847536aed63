// What came back from a send: the message ids (one per endpoint for a URL group), whether the service
// treated it as a duplicate, and one click to each message's log trail. Used by the composer and per batch item.
import type { SentMessage } from '../../../../../shared/bridge/procedures/publish';
import { useNav } from '../../../shell/nav';
import { Button } from '../../../ui/Button';
import { CopyButton } from '../../../ui/CopyButton';
import { Badge } from '../../../ui/misc';

export function SentMessages({ messages, fanOut }: { messages: SentMessage[]; fanOut: boolean }) {
  const navigate = useNav((state) => state.navigate);
  return (
    <ul className="sent-list" aria-label="Accepted messages">
      {messages.map((message) => (
        <li key={message.messageId + (message.url ?? '')} className="sent-item">
          {fanOut ? <div className="mono sent-url">{message.url}</div> : null}
          <div className="sent-id-row">
            <span className="mono sent-id" data-testid="message-id">
              {message.messageId}
            </span>
            {message.deduplicated ? <Badge tone="warning">deduplicated</Badge> : null}
          </div>
          <div className="row">
            <CopyButton size="sm" variant="ghost" text={message.messageId} label="Copy id" />
            <Button size="sm" onClick={() => navigate('messages', 'logs', message.messageId)}>
              Log trail →
            </Button>
          </div>
        </li>
      ))}
    </ul>
  );
}
