// Pub/sub: subscribe to channels and patterns (nothing by default — never `*` unless typed), watch the
// messages (kept up to a cap, newest last, JSON pretty-printed in the detail), and publish. Each
// subscription shows its own state: one whose connection dropped is subscribed again by main while the
// others keep streaming (the badge counts down to the next try), and once back it says that messages
// published meanwhile were not received. The whole stream reconnects (useReconnect) only when the stream
// itself is lost.
import { useEffect, useRef, useState } from 'react';
import type { BridgeErrorData } from '../../../../../shared/bridge/errors';
import type { KvPubSubEvent } from '../../../../../shared/bridge/procedures/kv/live';
import type { ProfileView } from '../../../../../shared/profiles';
import { useBridge, useBridgeMutation } from '../../../bridge/react';
import { ActiveService } from '../../../shell/ActiveService';
import { BodyView } from '../../../ui/BodyView';
import { Button } from '../../../ui/Button';
import { ErrorCallout } from '../../../ui/ErrorCallout';
import { TextareaField, TextField } from '../../../ui/fields';
import { Form } from '../../../ui/Form';
import { SendIcon } from '../../../ui/icons';
import { useStreamRows } from '../../../ui/list/VirtualRows';
import { Badge, Callout } from '../../../ui/misc';
import { ReconnectingCallout, useReconnect } from '../../../ui/use-reconnect';
import '../live.css';
import { type ToolbarInputField, ToolbarInputs } from '../../../ui/ToolbarInput';
import { formatTimeOfDay } from '../../../ui/format';
import { useNow } from '../../../ui/use-now';
import {
  allEnded,
  allLost,
  applySubscriptionEvent,
  noteTitle,
  stateText,
  type Subscription,
} from './subscriptions';

/** Messages kept in memory; the oldest go first. */
export const MESSAGE_CAP = 5_000;
const ROW_HEIGHT = 30;

type Message = Extract<KvPubSubEvent, { kind: 'message' }> & { seq: number };

/** What to subscribe to: channels and patterns, space-separated. */
const TARGET_FIELDS: readonly ToolbarInputField<'channels' | 'patterns'>[] = [
  { name: 'channels', label: 'Channels', placeholder: 'Channels: orders news' },
  { name: 'patterns', label: 'Patterns', placeholder: 'Patterns: user:*' },
];

export default function PubSubTab(_props: { params: string[] }) {
  return <ActiveService service="kv">{(profile) => <PubSub profile={profile} />}</ActiveService>;
}

/** `a b, c` → ['a', 'b', 'c'] (names with spaces are not supported in this field). */
function names(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).filter(Boolean))];
}

function PubSub({ profile }: { profile: ProfileView }) {
  const bridge = useBridge();
  const [targets, setTargets] = useState({ channels: '', patterns: '' });
  const [active, setActive] = useState<{ channels: string[]; patterns: string[] } | null>(null);
  const [subs, setSubs] = useState<Subscription[]>([]);
  const [messages, setMessages] = useState<Message[]>([]);
  const [selected, setSelected] = useState<number>();
  const [error, setError] = useState<BridgeErrorData>();
  const [dropped, setDropped] = useState(0);
  const seq = useRef(0);
  // Lost with its service (a restart, the network): subscribed again by itself, messages kept.
  const { attempt, lost, ended, opened, reset } = useReconnect();

  useEffect(() => {
    if (!active) return;
    return bridge.open(
      'kv.subscribe',
      { profileId: profile.id, channels: active.channels, patterns: active.patterns },
      {
        onEvents: (events, lost) => {
          const arrived: Message[] = [];
          let serverLost = 0;
          for (const event of events) {
            if (event.kind === 'message') arrived.push({ ...event, seq: seq.current++ });
            else if (event.kind === 'serverDropped') serverLost += event.count;
            else {
              if (event.kind === 'subscribed') opened();
              const at = Date.now();
              setSubs((current) => applySubscriptionEvent(current, event, at));
            }
          }
          if (lost + serverLost > 0) setDropped((n) => n + lost + serverLost);
          if (arrived.length > 0) {
            setMessages((current) => {
              const next = current.concat(arrived);
              return next.length > MESSAGE_CAP ? next.slice(next.length - MESSAGE_CAP) : next;
            });
          }
        },
        onEnd: (endError) => {
          if (ended(endError)) {
            // Each subscription failed with the connection: they all read reconnecting, not failed.
            setSubs(allLost);
            return;
          }
          if (endError) setError(endError);
          setSubs(allEnded);
          setActive(null);
        },
      },
    );
  }, [bridge, profile.id, active, attempt, ended, opened]);

  const channels = names(targets.channels);
  const patterns = names(targets.patterns);
  const chosen = messages.find((message) => message.seq === selected);

  return (
    <div className="kv-pubsub" data-testid="kv-pubsub">
      <div className="kv-pubsub-main">
        <Form
          className="toolbar kv-live-filters"
          onSubmit={() => {
            reset();
            if (active) {
              setSubs(allEnded);
              setActive(null);
            } else if (channels.length + patterns.length > 0) {
              setError(undefined);
              setSubs([
                ...channels.map((target) => ({ target, pattern: false, state: 'pending' as const })),
                ...patterns.map((target) => ({ target, pattern: true, state: 'pending' as const })),
              ]);
              setActive({ channels, patterns });
            }
          }}
        >
          <ToolbarInputs
            fields={TARGET_FIELDS}
            values={targets}
            disabled={Boolean(active)}
            onChange={setTargets}
          />
          <Button
            size="sm"
            type="submit"
            variant={active ? 'default' : 'primary'}
            disabled={!active && channels.length + patterns.length === 0}
          >
            {active ? 'Unsubscribe' : 'Subscribe'}
          </Button>
          <Button size="sm" variant="ghost" type="button" onClick={() => setMessages([])}>
            Clear
          </Button>
          {patterns.includes('*') && !active ? (
            <span className="kv-live-drops">`*` receives every message on the database</span>
          ) : null}
        </Form>
        <div className="kv-pubsub-subs" data-testid="pubsub-subscriptions">
          {subs.length === 0 ? (
            <span className="faint">
              Not subscribed. Enter channels or patterns (e.g. user:*) and subscribe.
            </span>
          ) : (
            subs.map((sub) => <SubscriptionBadge key={`${sub.pattern}:${sub.target}`} sub={sub} />)
          )}
          <span className="kv-live-spacer" />
          <span className="faint">
            {messages.length.toLocaleString()} kept (cap {MESSAGE_CAP.toLocaleString()}) · dropped{' '}
            <span data-testid="pubsub-dropped">{dropped.toLocaleString()}</span>
          </span>
        </div>
        <ErrorCallout error={error} title="Subscription ended." />
        {active ? <ReconnectingCallout lost={lost} what="the subscriptions" /> : null}
        {subs.map((sub) => (
          <SubscriptionNote key={`n:${sub.pattern}:${sub.target}`} sub={sub} />
        ))}
        <MessageList messages={messages} selected={selected} onSelect={setSelected} />
      </div>
      <aside className="kv-pubsub-side">
        <section>
          <h2 className="section-title">Message</h2>
          {chosen ? (
            <div data-testid="pubsub-detail">
              <p className="faint">
                {chosen.channel}
                {chosen.pattern ? ` (pattern ${chosen.pattern})` : ''} · {formatTimeOfDay(chosen.at)}
              </p>
              <BodyView value={chosen.payload} label="Message payload" />
            </div>
          ) : (
            <p className="faint">Select a message to see it (JSON is pretty-printed).</p>
          )}
        </section>
        <PublishForm profile={profile} defaultChannel={channels[0] ?? ''} />
      </aside>
    </div>
  );
}

const TONES = { active: 'success', reconnecting: 'warning', failed: 'danger' } as const;

function SubscriptionBadge({ sub }: { sub: Subscription }) {
  // Lost with the whole stream, it reads reconnecting too (stateText) until the stream is back. Only one
  // reconnecting on its own counts down (Countdown): no other state needs the clock.
  const lostWithStream = sub.state === 'pending' && sub.wasLost;
  return (
    <span title={sub.message}>
      <Badge tone={lostWithStream ? 'warning' : TONES[sub.state as keyof typeof TONES]}>
        {sub.pattern ? 'pattern ' : ''}
        {sub.target} · {sub.state === 'reconnecting' ? <Countdown sub={sub} /> : stateText(sub, 0)}
      </Badge>
    </span>
  );
}

/** `reconnecting in 4 s (attempt 3)`, counting down (its own clock: only it renders each second). */
function Countdown({ sub }: { sub: Subscription }) {
  const now = useNow(1000);
  return <>{stateText(sub, now)}</>;
}

/** What a subscription's state needs said: why it was refused, why it is reconnecting, what was missed. */
function SubscriptionNote({ sub }: { sub: Subscription }) {
  // Whether a time is today: refreshed each minute, so a note left open past midnight gains its date.
  const title = noteTitle(sub, useNow(60_000));
  if (sub.state === 'failed') {
    return (
      <Callout tone="danger" title={`Could not subscribe to ${sub.target}`}>
        {sub.message}
      </Callout>
    );
  }
  if (sub.state === 'reconnecting') {
    // Tried again for as long as the tab stays subscribed (as redis clients do): an outage of any length
    // ends without a click, and the time it was lost (with its date if not today) says how long it has lasted.
    return (
      <Callout tone="warning" title={title}>
        {sub.message} It is subscribed again by itself until you unsubscribe; the other subscriptions stay
        open.
      </Callout>
    );
  }
  if (sub.state === 'active' && sub.reconnectedAt !== undefined) {
    return (
      <div className="kv-pubsub-note" data-testid="pubsub-reconnected">
        <Callout title={title}>
          Messages published in between were not received (pub/sub keeps no history).
        </Callout>
      </div>
    );
  }
  return null;
}

function MessageList({
  messages,
  selected,
  onSelect,
}: {
  messages: Message[];
  selected: number | undefined;
  onSelect: (seq: number) => void;
}) {
  const { scrollRef, virtualizer, items } = useStreamRows(messages, ROW_HEIGHT);
  return (
    <div
      ref={scrollRef}
      className="kv-live-list"
      role="listbox"
      aria-label="Messages"
      data-testid="pubsub-messages"
    >
      {messages.length === 0 ? <div className="kv-live-empty faint">No messages yet.</div> : null}
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {items.map((item) => {
          const message = messages[item.index]!;
          return (
            <button
              key={item.key}
              type="button"
              role="option"
              aria-selected={message.seq === selected}
              className="kv-pubsub-row"
              style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
              onClick={() => onSelect(message.seq)}
            >
              <span className="kv-live-time">
                {new Date(message.at).toLocaleTimeString(undefined, { hour12: false })}
              </span>
              <span className="kv-live-command">{message.channel}</span>
              <span className="kv-live-args">{message.payload}</span>
            </button>
          );
        })}
      </div>
    </div>
  );
}

function PublishForm({ profile, defaultChannel }: { profile: ProfileView; defaultChannel: string }) {
  const [channel, setChannel] = useState('');
  const [message, setMessage] = useState('');
  const publish = useBridgeMutation('kv.publish');
  const target = channel.trim() || defaultChannel;
  return (
    <Form
      className="kv-pubsub-publish"
      aria-label="Publish"
      onSubmit={() => {
        if (target) publish.mutate({ profileId: profile.id, channel: target, message });
      }}
    >
      <h2 className="section-title">Publish</h2>
      <TextField
        label="Channel"
        mono
        placeholder={defaultChannel || 'orders'}
        value={channel}
        onChange={(event) => setChannel(event.target.value)}
      />
      <TextareaField
        label="Message"
        className="input-mono"
        rows={5}
        placeholder='{"id": 42}'
        value={message}
        onChange={(event) => setMessage(event.target.value)}
      />
      <div className="kv-pubsub-publish-actions">
        <Button
          type="submit"
          variant="primary"
          size="sm"
          icon={<SendIcon />}
          busy={publish.isPending}
          disabled={!target}
        >
          Publish{target ? ` to ${target}` : ''}
        </Button>
        {publish.isSuccess ? (
          <span data-testid="publish-result">
            Delivered to {publish.data.receivers.toLocaleString()} subscriber
            {publish.data.receivers === 1 ? '' : 's'}
          </span>
        ) : null}
      </div>
      <ErrorCallout error={publish.error} title="Not published" />
    </Form>
  );
}
