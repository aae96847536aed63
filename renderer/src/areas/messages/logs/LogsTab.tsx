// Message logs: filters, one row per message with its attempt trail (virtualized, loading older pages as
// you scroll), an auto-refresh toggle, a detail panel (#/messages/logs/<messageId>), and cancel as a job
// (MessageCancelJob.tsx) — the selected messages, every pending one matching the filters, or with no filter
// "all" chosen and confirmed; never with an empty filter.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import { LOGS_PAGE_SIZE } from '../../../../../shared/bridge/procedures/messages/logs';
import { LOG_STATE_FILTERS } from '../../../../../shared/bridge/procedures/messages/filters';
import type { ProfileView } from '../../../../../shared/profiles';
import { useBridgeQuery } from '../../../bridge/react';
import { ActiveService } from '../../../shell/ActiveService';
import { type PaletteCommand, useContextCommands } from '../../../shell/context-commands';

import { useScreenRoute } from '../../../shell/screen-route';
import { RemovableChip } from '../../../ui/Chip';
import { describeDraft } from '../../../ui/filter-draft';
import { FilterBar, FilterField, type TextFilter } from '../../../ui/FilterBar';
import { MESSAGE_DESTINATION_FILTERS, MESSAGE_TEXT_FILTERS } from '../message-filter-fields';
import { Switch } from '../../../ui/fields';
import { plural } from '../../../ui/format';
import { SearchIcon, XIcon } from '../../../ui/icons';
import { useJobDialog } from '../../../ui/job/useJobDialog';
import { ListBody } from '../../../ui/list/ListBody';
import { notLoaded } from '../../../ui/Waiting';
import { ListToolbar } from '../../../ui/list/ListToolbar';
import { ListWithDetail } from '../../../ui/list/ListWithDetail';
import { usePagedBridgeQuery } from '../../../ui/list/use-paged-bridge-query';
import { useSelection } from '../../../ui/list/use-selection';
import { EmptyState } from '../../../ui/misc';
import '../../../ui/tables.css';
import { groupByMessage, mergeEvents } from './group-events';
import { LogDetail } from './LogDetail';
import { LogList } from './LogList';
import { MessageCancelActions, MessageCancelDialog, selectedMessages } from './MessageCancelJob';
import {
  cancelScope,
  type LogFilterDraft,
  removeRunFilter,
  runFilterText,
  toLogFilters,
  useLogsUi,
} from './log-filters';
import './logs.css';
import { pollEvery } from '../../../bridge/polling';

export default function LogsTab({ params }: { params: string[] }) {
  return <ActiveService>{(profile) => <Logs profile={profile} messageId={params[0]} />}</ActiveService>;
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
  const queryClient = useQueryClient();
  const screen = useScreenRoute();
  const { applied, autoRefresh, setAutoRefresh } = useLogsUi();
  const { filters, error: filterError } = useMemo(() => toLogFilters(applied), [applied]);

  const list = usePagedBridgeQuery(
    'messages.logs.list',
    { profileId: profile.id, filters, count: LOGS_PAGE_SIZE },
    'events',
    { enabled: !filterError, staleTime: Infinity },
  );
  // Auto-refresh polls the newest page and lays it over the loaded ones.
  const head = useBridgeQuery(
    'messages.logs.list',
    { profileId: profile.id, filters, count: LOGS_PAGE_SIZE },
    { enabled: autoRefresh && !filterError, refetchInterval: pollEvery(autoRefresh ? 3000 : false) },
  );

  const loaded = list.items;
  const events = useMemo(
    () => (autoRefresh && head.data ? mergeEvents(head.data.events, loaded) : loaded),
    [autoRefresh, head.data, loaded],
  );
  const trails = useMemo(() => groupByMessage(events), [events]);
  const selection = useSelection(useMemo(() => trails.map((trail) => trail.messageId), [trails]));

  // More new events than one page since the last poll: the head no longer meets the loaded pages.
  const { reset } = list;
  useEffect(() => {
    if (!autoRefresh || !head.data?.cursor || loaded.length === 0) return;
    const oldestHead = head.data.events[head.data.events.length - 1];
    if (oldestHead && oldestHead.time > loaded[0]!.time) reset();
  }, [autoRefresh, head.data, loaded, reset]);

  const [cancelDialog, askCancel] = useJobDialog(MessageCancelDialog, profile, () => selection.clear());
  const askCancelSelected = () => askCancel(selectedMessages(selection.ids));
  const selectedCount = selection.count;
  const writable = !profile.readOnly;
  const askCancelSelectedRef = useRef(askCancelSelected);
  useEffect(() => {
    askCancelSelectedRef.current = askCancelSelected;
  });
  const paletteCommands = useMemo<PaletteCommand[]>(
    () =>
      writable && selectedCount > 0
        ? [
            {
              id: 'logs:cancel-selected',
              title: `Cancel ${plural(selectedCount, 'selected message')}…`,
              group: 'Logs',
              icon: XIcon,
              run: () => askCancelSelectedRef.current(),
            },
          ]
        : [],
    [writable, selectedCount],
  );
  useContextCommands('logs', paletteCommands);
  const refresh = () => {
    list.reset();
    if (messageId) void queryClient.invalidateQueries({ queryKey: ['messages.logs.list'] });
  };

  return (
    <div className="logs-tab">
      <LogFilterBar />
      {applied.run ? (
        <div className="logs-chips" role="group" aria-label="Applied run filter">
          <RemovableChip text={runFilterText(applied.run)} onRemove={removeRunFilter} />
        </div>
      ) : null}
      <ListToolbar
        className="logs-toolbar"
        testId="logs-summary"
        failed={notLoaded(list.query)}
        summary={
          list.loaded
            ? `${plural(trails.length, 'message')} · ${plural(events.length, 'event')}${list.hasMore ? ' loaded' : ''}`
            : undefined
        }
        controls={<Switch label="Auto-refresh" checked={autoRefresh} onChange={setAutoRefresh} />}
        refreshing={list.refreshing}
        onRefresh={refresh}
        selected={selection.count}
      >
        <MessageCancelActions
          profile={profile}
          selected={selection.ids}
          matching={
            // The cancel lists its messages from the logs too: while they cannot be read, it has nothing to go by.
            list.query.error
              ? {
                  off: 'The logs could not be loaded; refresh them first',
                  all: cancelScope(filters) === 'all',
                }
              : cancelScope(filters)
          }
          onAsk={askCancel}
        />
      </ListToolbar>
      <ListWithDetail
        open={messageId}
        detail={(id) => <LogDetail profile={profile} messageId={id} autoRefresh={autoRefresh} />}
      >
        <ListBody
          problem={filterError}
          query={list.query}
          failure="Could not load the logs."
          empty={
            list.loaded && trails.length === 0 ? (
              <EmptyState icon={<SearchIcon />} title="No log events">
                <p>
                  {describeFilters(applied) === 'no filters'
                    ? 'Nothing was published with this profile yet (or it is older than the retention).'
                    : 'Nothing matches these filters.'}
                </p>
              </EmptyState>
            ) : undefined
          }
        >
          <LogList
            trails={trails}
            eventCount={events.length}
            selectedId={messageId}
            isChecked={selection.isChecked}
            hasMore={list.hasMore}
            loadingMore={list.loadingMore || (!list.loaded && list.query.isFetching)}
            onLoadMore={list.loadMore}
            onOpen={screen.open}
            onCheck={selection.toggle}
            canCancel={writable}
            profileId={profile.id}
            stateFiltered={Boolean(filters.state)}
          />
        </ListBody>
      </ListWithDetail>
      {cancelDialog}
    </div>
  );
}

const LOG_TEXT_FILTERS: TextFilter<LogFilterDraft>[] = [
  MESSAGE_TEXT_FILTERS.messageId,
  ...MESSAGE_DESTINATION_FILTERS,
  { key: 'scheduleId', label: 'Schedule', placeholder: 'scd_…' },
  MESSAGE_TEXT_FILTERS.label,
  { key: 'flowControlKey', label: 'Flow-control key', placeholder: 'tenant-42' },
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
  const run = draft.run ? runFilterText(draft.run) : '';
  const rest = describeDraft(draft, [
    ['state', 'state'],
    ['messageId', 'message'],
    ['url', 'URL'],
    ['topicName', 'group'],
    ['queueName', 'queue'],
    ['scheduleId', 'schedule'],
    ['label', 'label'],
  ]);
  return [run, rest].filter(Boolean).join(', ') || 'no filters';
}
