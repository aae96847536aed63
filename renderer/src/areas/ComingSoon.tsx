// The empty state an area shows until its feature lands: what it will do, and what works today.
import type { ReactNode } from 'react';
import { PageHeader } from '../shell/PageHeader';
import { useActiveProfile, useStackStatus } from '../shell/data';
import { Callout, EmptyState } from '../ui/misc';

export function ComingSoon({
  title,
  headline,
  subtitle,
  icon,
  summary,
  plans,
  today,
}: {
  title: string;
  /** One line on what this area becomes, e.g. "The message composer is on its way". */
  headline: string;
  subtitle: string;
  icon: ReactNode;
  summary: ReactNode;
  plans: string[];
  today?: ReactNode;
}) {
  return (
    <>
      <PageHeader title={title} subtitle={subtitle} />
      <div className="page-body">
        <EmptyState icon={icon} title={headline}>
          <p>{summary}</p>
          <ul className="empty-list">
            {plans.map((plan) => (
              <li key={plan}>{plan}</li>
            ))}
          </ul>
          {today}
        </EmptyState>
      </div>
    </>
  );
}

/** "Today you can…" line pointing SDK users at the running local stack. */
export function LocalStackHint({ service }: { service: 'messages' | 'kv' }) {
  const active = useActiveProfile();
  const stack = useStackStatus();
  if (active?.id !== 'local' || stack?.state !== 'ready') return null;
  const url = service === 'messages' ? stack.messagesUrl : stack.kvUrl;
  if (!url) return null;
  return (
    <Callout tone="info">
      Today: the local stack already serves this API at <code>{url}</code> — point your app's SDK at it.
    </Callout>
  );
}
