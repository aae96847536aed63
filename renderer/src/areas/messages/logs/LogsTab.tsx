// Message logs: filters, one row per message with its attempt trail (virtualized, loading older pages as
// you scroll), an auto-refresh toggle, a detail panel (#/messages/logs/<messageId>), and cancel — for the
// selected messages or everything matching the filters, never with an empty request.
import { type InfiniteData, useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { BridgeError } from '../../../../../shared/bridge/errors';
import { LOGS_PAGE_SIZE, type LogsPage } from '../../../../../shared/bridge/procedures/messages/logs';
import { LOG_STATE_FILTERS } from '../../../../../shared/bridge/procedures/messages/filters';
import type { ProfileView } from '../../../../../shared/profiles';
import { errorMessage } from '../../../bridge/client';
import { useBridge, useBridgeMutation, useBridgeQuery } from '../../../bridge/react';
import { useActiveProfile, useStackStatus } from '../../../shell/data';
import { useNav } from '../../../shell/nav';
import { Button } from '../../../ui/Button';
import { confirmDanger } from '../../../ui/confirm-danger';
import { FilterBar, FilterField, type TextFilter } from '../../../ui/FilterBar';
import { Switch } from '../../../ui/fields';
import { plural } from '../../../ui/format';
import { RefreshIcon, SearchIcon } from '../../../ui/icons';
import { Callout, EmptyState } from '../../../ui/misc';
import { ServiceGate } from '../../../ui/ServiceGate';
import { toast } from '../../../ui/toast';
import '../../../ui/tables.css';
import { groupByMessage, mergeEvents } from './group-events';
import { LogDetail } from './LogDetail';
import { LogList } from './LogList';
import { type LogFilterDraft, toCancelFilters, toLogFilters, useLogsUi } from './log-filters';
import './logs.css';

export default function LogsTab({ params }: { params: string[] }) {
  const profile = useActiveProfile();
  const stack = useStackStatus();
  return (
    <ServiceGate profile={profile} stack={stack}>
      {(active) => <Logs key={active.id} profile={active} messageId={params[0]} />}
    </ServiceGate>
  );
}

const STATE_LABELS: Record<(typeof LOG_STATE_FILTERS)[number], string> = {
  CREATED: 'Created',
  ACTIVE: 'Active',
  RETRY: 'Retry',
  ERROR: 'Error',
  DELIVERED: 'Delivered',
  FAILED: 'Failed',
  CANCEL_REQUESTED: 'Cancel requested',
  CANCELLED: 'Cancelled',
  IN_PROGRESS: 'In progress (active, retry, error)',
};

function Logs({ profile, messageId }: { profile: ProfileView; messageId?: string }) {
  const bridge = useBridge();
  const queryClient = useQueryClient();
  const navigate = useNav((state) => state.navigate);
  const { applied, autoRefresh, setAutoRefresh } = useLogsUi();
  const { filters, error: filterError } = useMemo(() => toLogFilters(applied), [applied]);
  const [checked, setChecked] = useState<Set<string>>(() => new Set());

  const pagesKey = useMemo(() => ['messages.logs.list', 'pages', profile.id, filters], [profile.id, filters]);
  const pages = useInfiniteQuery<
    LogsPage,
    BridgeError,
    InfiniteData<LogsPage>,
    typeof pagesKey,
    string | undefined
  >({
    queryKey: pagesKey,
    queryFn: ({ pageParam }) =>
      bridge.call('messages.logs.list', {
        profileId: profile.id,
        filters,
        cursor: pageParam,
        count: LOGS_PAGE_SIZE,
      }),
    initialPageParam: undefined,
    getNextPageParam: (last) => last.cursor,
    enabled: !filterError,
    staleTime: Infinity,
  });
  // Auto-refresh polls the newest page and lays it over the loaded ones.
  const head = useBridgeQuery(
    'messages.logs.list',
    { profileId: profile.id, filters, count: LOGS_PAGE_SIZE },
    { enabled: autoRefresh && !filterError, refetchInterval: autoRefresh ? 3000 : false },
  );

  const loaded = useMemo(() => pages.data?.pages.flatMap((page) => page.events) ?? [], [pages.data]);
  const events = useMemo(
    () => (autoRefresh && head.data ? mergeEvents(head.data.events, loaded) : loaded),
    [autoRefresh, head.data, loaded],
  );
  const trails = useMemo(() => groupByMessage(events), [events]);

  // More new events than one page since the last poll: the head no longer meets the loaded pages.
  useEffect(() => {
    if (!autoRefresh || !head.data?.cursor || loaded.length === 0) return;
    const oldestHead = head.data.events[head.data.events.length - 1];
    if (oldestHead && oldestHead.time > loaded[0]!.time)
      void queryClient.resetQueries({ queryKey: pagesKey, exact: true });
  }, [autoRefresh, head.data, loaded, pagesKey, queryClient]);

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = pages;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const cancel = useBridgeMutation('messages.logs.cancel', {
    invalidates: ['messages.logs.list'],
    onSuccess: ({ cancelled }) => {
      toast.success(`${plural(cancelled, 'message')} cancelled`);
      setChecked(new Set());
    },
    onError: (error) => toast.error('Could not cancel', errorMessage(error)),
  });
  const cancelFilters = toCancelFilters(filters);
  const askCancelSelected = async () => {
    const ids = [...checked];
    const ok = await confirmDanger(profile, {
      title: `Cancel ${plural(ids.length, 'message')}?`,
      body: 'They will not be delivered (again). A delivery already in flight may still arrive. This cannot be undone.',
      confirmLabel: `Cancel ${plural(ids.length, 'message')}`,
      typeOnProd: 'cancel',
    });
    if (ok) cancel.mutate({ profileId: profile.id, target: { messageIds: ids } });
  };
  const askCancelMatching = async () => {
    if (!cancelFilters) return;
    const ok = await confirmDanger(profile, {
      title: 'Cancel every pending message that matches?',
      body: (
        <>
          Every message not yet delivered that matches <strong>{describeFilters(applied)}</strong> is
          cancelled — also ones not loaded here. The state and message-id filters do not apply to cancel. This
          cannot be undone.
        </>
      ),
      confirmLabel: 'Cancel matching messages',
      typeOnProd: 'cancel',
    });
    if (ok) cancel.mutate({ profileId: profile.id, target: { filters: cancelFilters } });
  };

  const refresh = () => {
    void queryClient.resetQueries({ queryKey: pagesKey, exact: true });
    if (messageId) void queryClient.invalidateQueries({ queryKey: ['messages.logs.list'] });
  };
  const canCancel = !profile.readOnly;

  return (
    <div className="logs-tab">
      <LogFilterBar />
      <div className="toolbar logs-toolbar">
        <span className="muted" data-testid="logs-summary">
          {pages.data
            ? `${plural(trails.length, 'message')} · ${plural(events.length, 'event')}${pages.hasNextPage ? ' loaded' : ''}`
            : 'Loading…'}
        </span>
        <Switch label="Auto-refresh" checked={autoRefresh} onChange={setAutoRefresh} />
        <Button
          size="sm"
          icon={<RefreshIcon />}
          busy={pages.isFetching && !pages.isFetchingNextPage}
          onClick={refresh}
        >
          Refresh
        </Button>
        <span className="spacer" />
        {checked.size > 0 ? <span className="muted">{checked.size} selected</span> : null}
        <Button
          size="sm"
          variant="danger"
          disabled={checked.size === 0 || !canCancel}
          title={!canCancel ? 'Read-only profile' : 'Select pending messages in the list'}
          busy={cancel.isPending}
          onClick={() => void askCancelSelected()}
        >
          Cancel selected
        </Button>
        <Button
          size="sm"
          disabled={!cancelFilters || !canCancel}
          title={
            !canCancel
              ? 'Read-only profile'
              : cancelFilters
                ? 'Cancel every pending message matching the filters'
                : 'Set a URL, group, queue, label or date filter first'
          }
          onClick={() => void askCancelMatching()}
        >
          Cancel matching…
        </Button>
      </div>
      <div className={messageId ? 'logs-split has-detail' : 'logs-split'}>
        <div className="logs-main">
          {filterError ? (
            <Callout tone="warning">{filterError}</Callout>
          ) : pages.error ? (
            <Callout tone="danger" title="Could not load the logs.">
              {errorMessage(pages.error)}
            </Callout>
          ) : pages.data && trails.length === 0 ? (
            <EmptyState icon={<SearchIcon />} title="No log events">
              <p>
                {describeFilters(applied) === 'no filters'
                  ? 'Nothing was published with this profile yet (or it is older than the retention).'
                  : 'Nothing matches these filters.'}
              </p>
            </EmptyState>
          ) : (
            <LogList
              trails={trails}
              eventCount={events.length}
              selectedId={messageId}
              checked={checked}
              hasMore={Boolean(pages.hasNextPage)}
              loadingMore={pages.isFetchingNextPage || (!pages.data && pages.isFetching)}
              onLoadMore={loadMore}
              onOpen={(id) => navigate('messages', 'logs', id)}
              onCheck={(id, on) =>
                setChecked((current) => {
                  const next = new Set(current);
                  if (on) next.add(id);
                  else next.delete(id);
                  return next;
                })
              }
              canCancel={canCancel}
            />
          )}
        </div>
        {messageId ? (
          <LogDetail
            key={messageId}
            profile={profile}
            messageId={messageId}
            autoRefresh={autoRefresh}
            onClose={() => navigate('messages', 'logs')}
          />
        ) : null}
      </div>
    </div>
  );
}

const LOG_TEXT_FILTERS: TextFilter<LogFilterDraft>[] = [
  { key: 'messageId', label: 'Message id', placeholder: 'msg_…' },
  { key: 'url', label: 'URL', placeholder: 'https://…, …', wide: true },
  { key: 'topicName', label: 'URL group', placeholder: 'orders' },
  { key: 'queueName', label: 'Queue', placeholder: 'emails' },
  { key: 'label', label: 'Label', placeholder: 'nightly, …' },
];

function LogFilterBar() {
  const form = useLogsUi();
  return (
    <FilterBar label="Log filters" form={form} fields={LOG_TEXT_FILTERS}>
      <FilterField label="State">
        <select
          className="select"
          value={form.draft.state}
          onChange={(event) => form.setDraft({ state: event.target.value as LogFilterDraft['state'] })}
        >
          <option value="">Any state</option>
          {LOG_STATE_FILTERS.map((state) => (
            <option key={state} value={state}>
              {STATE_LABELS[state]}
            </option>
          ))}
        </select>
      </FilterField>
    </FilterBar>
  );
}

function describeFilters(draft: LogFilterDraft): string {
  const parts: string[] = [];
  if (draft.state) parts.push(`state ${draft.state}`);
  if (draft.messageId) parts.push(`message ${draft.messageId}`);
  if (draft.url) parts.push(`URL ${draft.url}`);
  if (draft.topicName) parts.push(`group ${draft.topicName}`);
  if (draft.queueName) parts.push(`queue ${draft.queueName}`);
  if (draft.label) parts.push(`label ${draft.label}`);
  if (draft.from) parts.push(`from ${draft.from.replace('T', ' ')}`);
  if (draft.to) parts.push(`to ${draft.to.replace('T', ' ')}`);
  return parts.length > 0 ? parts.join(', ') : 'no filters';
}
