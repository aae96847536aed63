// The flow-control key of a message or a workflow run/step, in its detail panel: a link to the key on the
// Flow control screen and, while the message or step is not delivered yet, "Why is this not delivered?",
// which opens the key with that message named (the screen then says whether the key holds it and how
// many wait ahead of it). Route: #/messages/flow-control/<key>[/<messageId>].
import { Fact } from '../../../ui/Fact';
import { InAppLink } from '../../../ui/InAppLink';
import { formatHash, useNav } from '../../../shell/nav';

export function FlowKeyFact({
  flowKey,
  messageId,
  pending,
}: {
  flowKey: string | undefined;
  /** The message (or step message) the panel shows. */
  messageId?: string;
  /** Not delivered yet: offer the question. */
  pending: boolean;
}) {
  const navigate = useNav((state) => state.navigate);
  if (!flowKey) return null;
  const link = (params: string[], text: string, className?: string) => (
    <InAppLink
      className={className}
      href={formatHash({ area: 'messages', params })}
      onOpen={() => navigate('messages', ...params)}
    >
      {text}
    </InAppLink>
  );
  return (
    <Fact label="Flow-control key">
      {link(['flow-control', flowKey], flowKey, 'mono')}
      {pending ? (
        <>
          {' · '}
          {link(
            messageId ? ['flow-control', flowKey, messageId] : ['flow-control', flowKey],
            'Why is this not delivered?',
          )}
        </>
      ) : null}
    </Fact>
  );
}
