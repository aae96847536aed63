// The message dead-letter queue: filters, a paged list with selection, the failing response of each
// entry, and retry / delete for one entry, the selected ones or everything matching (see MessageDlqJobDialog).
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import { hasAnyFilter } from '../../../../shared/bridge/job';
import type { DLQMessage } from '../../../../shared/messages/types';
import type { ProfileView } from '../../../../shared/profiles';
import { ActiveService } from '../../shell/ActiveService';
import { type PaletteCommand, useContextCommands } from '../../shell/context-commands';

import { useScreenRoute } from '../../shell/screen-route';
import { PageHeader } from '../../shell/PageHeader';
import { Button } from '../../ui/Button';
import { FilterBar, type TextFilter } from '../../ui/FilterBar';
import { MESSAGE_DESTINATION_FILTERS, MESSAGE_TEXT_FILTERS } from '../messages/message-filter-fields';
import { formatRelative, formatTime, plural } from '../../ui/format';
import { InboxIcon, RefreshIcon, TrashIcon } from '../../ui/icons';
import { useJobDialog } from '../../ui/job/useJobDialog';
import { ListBody } from '../../ui/list/ListBody';
import { notLoaded } from '../../ui/Waiting';
import { ListToolbar } from '../../ui/list/ListToolbar';
import { ListWithDetail } from '../../ui/list/ListWithDetail';
import { SelectAllCell, SelectCell } from '../../ui/list/SelectCells';
import { usePagedBridgeQuery } from '../../ui/list/use-paged-bridge-query';
import { useSelection } from '../../ui/list/use-selection';
import { Badge, EmptyState } from '../../ui/misc';
import { RowActions } from '../../ui/RowActions';
import '../../ui/tables.css';
import { TableHead } from '../../ui/TableHead';
import { MessageDlqJobDialog, type MessageDlqJobRequest } from './MessageDlqJobDialog';
import { MessageDlqDetail } from './MessageDlqDetail';
import { statusTone } from './status';
import { type DlqFilterDraft, describeDlqFilters, toDlqFilters, useDlqUi } from './dlq-filters';
import './dlq.css';

export default function MessageDlqArea({ params }: { params: string[] }) {
  return (
    <>
      <PageHeader
        title="Dead-letter queue"
        subtitle="Messages that ran out of retries: inspect, fix, retry or delete"
      />
      <ActiveService>{(profile) => <Dlq profile={profile} dlqId={params[0]} />}</ActiveService>
    </>
  );
}

function Dlq({ profile, dlqId }: { profile: ProfileView; dlqId?: string }) {
  const queryClient = useQueryClient();
  const screen = useScreenRoute();
  const applied = useDlqUi((state) => state.applied);
  const { filters, error: filterError } = useMemo(() => toDlqFilters(applied), [applied]);

  const list = usePagedBridgeQuery('messages.dlq.list', { profileId: profile.id, filters }, 'messages', {
    enabled: !filterError,
  });
  const entries = list.items;
  const selection = useSelection(useMemo(() => entries.map((entry) => entry.dlqId), [entries]));
  const selected = dlqId ? entries.find((entry) => entry.dlqId === dlqId) : undefined;
  const filterText = describeDlqFilters(applied);

  const refresh = () => {
    list.reset();
    void queryClient.invalidateQueries({ queryKey: ['messages.dlq.get'] });
  };
  const afterChange = () => {
    selection.clear();
    refresh();
  };
  const [jobDialog, openJob] = useJobDialog(MessageDlqJobDialog, profile, (job) => {
    // The open entry may be gone now (retried entries leave the DLQ): close its panel rather than
    // show "not found"; the dialog's summary says what became of it.
    if (dlqId && actsOn(job, dlqId)) screen.close();
    afterChange();
  });
  const askSelected = (action: MessageDlqJobRequest['action']) =>
    openJob({
      action,
      target: { ids: selection.ids },
      description: `the ${plural(selection.count, 'selected entry', 'selected entries')}`,
    });
  // Every entry matching the filters, also ones not loaded here; without a filter, explicitly everything.
  const askMatching = (action: MessageDlqJobRequest['action']) =>
    openJob({
      action,
      target: hasAnyFilter(filters) ? { filters } : { all: true },
      description: hasAnyFilter(filters)
        ? `every entry matching ${filterText || 'the dates'}`
        : 'every entry in the DLQ',
    });

  const selectedCount = selection.count;
  const canWrite = !profile.readOnly;
  const paletteCommands = useMemo<PaletteCommand[]>(
    () =>
      canWrite && selectedCount > 0
        ? [
            {
              id: 'dlq:retry-selected',
              title: `Retry ${plural(selectedCount, 'selected DLQ entry', 'selected DLQ entries')}…`,
              group: 'DLQ',
              icon: RefreshIcon,
              run: () => askSelectedRef.current('retry'),
            },
            {
              id: 'dlq:delete-selected',
              title: `Delete ${plural(selectedCount, 'selected DLQ entry', 'selected DLQ entries')}…`,
              group: 'DLQ',
              icon: TrashIcon,
              run: () => askSelectedRef.current('delete'),
            },
          ]
        : [],
    [canWrite, selectedCount],
  );
  // The palette runs the latest askSelected (it reads the current selection) without re-registering.
  const askSelectedRef = useRef(askSelected);
  useEffect(() => {
    askSelectedRef.current = askSelected;
  });
  useContextCommands('dlq', paletteCommands);

  return (
    <div className="dlq-page">
      <DlqFilterBar />
      <ListToolbar
        testId="dlq-summary"
        failed={notLoaded(list.query)}
        summary={
          list.loaded
            ? `${plural(entries.length, 'entry', 'entries')}${list.hasMore ? ' loaded (more below)' : ''}`
            : undefined
        }
        refreshing={list.refreshing}
        onRefresh={refresh}
        selected={selection.count}
      >
        <RowActions
          profile={profile}
          available={selection.count > 0}
          actions={[
            { label: 'Retry selected…', variant: 'primary', onClick: () => askSelected('retry') },
            { label: 'Delete selected…', variant: 'danger', onClick: () => askSelected('delete') },
          ]}
        />
        <span className="toolbar-divider" />
        <RowActions
          profile={profile}
          available={!filterError && entries.length > 0}
          title="Every entry matching the filters, also ones not loaded here"
          actions={[
            { label: 'Retry all matching…', onClick: () => askMatching('retry') },
            { label: 'Delete all matching…', onClick: () => askMatching('delete') },
          ]}
        />
      </ListToolbar>
      <ListWithDetail
        mainClassName="dlq-main"
        open={dlqId}
        detail={(id) => (
          <MessageDlqDetail
            profile={profile}
            dlqId={id}
            loaded={selected}
            onRetry={(entry) =>
              openJob({
                action: 'retry',
                target: { ids: [entry.dlqId] },
                description: `entry ${entry.dlqId}`,
                entry,
              })
            }
            onDeleted={afterChange}
          />
        )}
      >
        <ListBody
          problem={filterError}
          query={list.query}
          failure="Could not load the DLQ."
          empty={
            entries.length === 0 ? (
              <EmptyState icon={<InboxIcon />} title={filterText ? 'Nothing matches' : 'The DLQ is empty'}>
                <p>
                  {filterText
                    ? `No dead-lettered message matches ${filterText}.`
                    : 'Messages land here when every delivery attempt failed (or the destination answered 489 with Upstash-NonRetryable-Error).'}
                </p>
              </EmptyState>
            ) : undefined
          }
        >
          <table className="table dlq-table" aria-label="DLQ entries">
            <TableHead columns={['Status', 'Message id', 'Destination', 'Via', 'Labels', 'Created']}>
              <SelectAllCell
                label="Select all loaded entries"
                checked={selection.allChecked}
                onChange={selection.setAll}
              />
            </TableHead>
            <tbody>
              {entries.map((entry) => (
                <DlqRow
                  key={entry.dlqId}
                  entry={entry}
                  selected={entry.dlqId === dlqId}
                  checked={selection.isChecked(entry.dlqId)}
                  onCheck={(on) => selection.toggle(entry.dlqId, on)}
                  onOpen={() => screen.open(entry.dlqId)}
                />
              ))}
            </tbody>
          </table>
          {list.hasMore ? (
            <div className="dlq-more">
              <Button busy={list.loadingMore} onClick={list.loadMore}>
                Load more
              </Button>
            </div>
          ) : null}
        </ListBody>
      </ListWithDetail>
      {jobDialog}
    </div>
  );
}

/** Whether a job may have changed this entry: it names it, or it works by filter or on everything. */
function actsOn(request: MessageDlqJobRequest, dlqId: string): boolean {
  return !('ids' in request.target) || request.target.ids.includes(dlqId);
}

function DlqRow({
  entry,
  selected,
  checked,
  onCheck,
  onOpen,
}: {
  entry: DLQMessage;
  selected: boolean;
  checked: boolean;
  onCheck: (on: boolean) => void;
  onOpen: () => void;
}) {
  const via = entry.topicName
    ? `${entry.topicName}${entry.endpointName ? ` / ${entry.endpointName}` : ''}`
    : entry.queueName
      ? `queue ${entry.queueName}`
      : entry.scheduleId
        ? `schedule ${entry.scheduleId}`
        : '—';
  return (
    <tr
      className="clickable-row"
      aria-selected={selected}
      onClick={onOpen}
      data-testid={`dlq-${entry.dlqId}`}
    >
      <SelectCell label={`Select ${entry.dlqId}`} checked={checked} onChange={onCheck} />
      <td>
        <Badge tone={statusTone(entry.responseStatus)}>
          {entry.responseStatus === 0 ? 'No response' : `HTTP ${entry.responseStatus}`}
        </Badge>
      </td>
      <td className="mono dlq-message-id" title={entry.messageId}>
        {entry.messageId}
      </td>
      <td className="mono dlq-url">
        <span className="method">{entry.method}</span> {entry.url}
      </td>
      <td className="muted">{via}</td>
      <td className="muted">{entry.labels?.join(', ') || '—'}</td>
      <td title={formatTime(entry.createdAt)} className="num">
        {formatRelative(entry.createdAt)}
      </td>
    </tr>
  );
}

const DLQ_TEXT_FILTERS: TextFilter<DlqFilterDraft>[] = [
  ...MESSAGE_DESTINATION_FILTERS,
  MESSAGE_TEXT_FILTERS.label,
  { key: 'responseStatus', label: 'Response status', placeholder: '500, 404' },
  MESSAGE_TEXT_FILTERS.messageId,
];

function DlqFilterBar() {
  return <FilterBar label="DLQ filters" form={useDlqUi()} fields={DLQ_TEXT_FILTERS} />;
}
