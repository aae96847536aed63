// Schedules: every schedule with its cron in words and zone, its next fire times, paused state, last run and
// destination; search and a state filter; create, edit, pause/resume, trigger now, delete; a schedule's
// messages in the Logs (a logged message links back here: #/messages/schedules/<id>).
import { useMemo, useState } from 'react';
import { describeCron } from '../../../../../shared/messages/cron-words';
import { zoneOf } from '../../../../../shared/messages/schedule-form';
import type { Schedule } from '../../../../../shared/messages/schedules';
import type { ProfileView } from '../../../../../shared/profiles';
import { LOCAL_PROFILE_ID } from '../../../../../shared/profiles';
import { errorMessage } from '../../../bridge/client';
import { useBridgeMutation, useBridgeQuery } from '../../../bridge/react';
import { ActiveService } from '../../../shell/ActiveService';
import { Button } from '../../../ui/Button';
import { confirmDanger } from '../../../ui/confirm-danger';
import { Segmented } from '../../../ui/fields';
import { formatRelative, formatTime, plural } from '../../../ui/format';
import { PlusIcon, SendIcon } from '../../../ui/icons';
import { useJobDialog } from '../../../ui/job/useJobDialog';
import { SelectAllCell, SelectCell } from '../../../ui/list/SelectCells';
import { useSelection } from '../../../ui/list/use-selection';
import { Badge, EmptyState } from '../../../ui/misc';
import { QueryView, RefreshButton } from '../../../ui/QueryView';
import { RemoveRowButton } from '../../../ui/RemoveRowButton';
import { RowActions } from '../../../ui/RowActions';
import { toast } from '../../../ui/toast';
import { ToolbarSearch } from '../../../ui/ToolbarInput';
import { WriteButton } from '../../../ui/WriteButton';
import { UntitledHeader } from '../../../ui/TableHead';
import '../../../ui/tables.css';
import { useNow } from '../../../ui/use-now';
import { openLogs } from '../logs/log-filters';
import { ScheduleDialog } from './ScheduleDialog';
import { ScheduleJobDialog, type ScheduleJobRequest } from './ScheduleJobDialog';
import {
  destinationText,
  filterSchedules,
  formatInZone,
  nextFireTimes,
  runSummary,
  STATE_FILTER_LABELS,
  type StateFilter,
} from './schedule-list';
import './schedules.css';
import { pollEvery } from '../../../bridge/polling';

export default function SchedulesTab({ params }: { params: string[] }) {
  return <ActiveService>{(profile) => <Schedules profile={profile} focusId={params[0]} />}</ActiveService>;
}

function Schedules({ profile, focusId }: { profile: ProfileView; focusId?: string }) {
  const schedules = useBridgeQuery(
    'messages.schedules.list',
    { profileId: profile.id },
    { refetchInterval: pollEvery(5000) },
  );
  const [search, setSearch] = useState(focusId ?? '');
  const [state, setState] = useState<StateFilter>('all');
  const [editing, setEditing] = useState<Schedule | 'new' | null>(null);
  // A link from a logged message (#/messages/schedules/<id>) shows that schedule.
  const [seenFocus, setSeenFocus] = useState(focusId);
  if (seenFocus !== focusId) {
    setSeenFocus(focusId);
    setSearch(focusId ?? '');
  }
  const shown = useMemo(
    () => filterSchedules(schedules.data ?? [], search, state),
    [schedules.data, search, state],
  );
  const selection = useSelection(useMemo(() => shown.map((s) => s.scheduleId), [shown]));
  const now = useNow(30_000);

  const setPaused = useBridgeMutation('messages.schedules.setPaused', {
    onSuccess: (schedule) =>
      toast.success(`${schedule.scheduleId} ${schedule.isPaused ? 'paused' : 'resumed'}`),
    onError: (error) => toast.error('Could not change the schedule', errorMessage(error)),
  });
  const remove = useBridgeMutation('messages.schedules.delete', {
    onSuccess: ({ deleted }) => toast.success(`Deleted ${deleted}`),
    onError: (error) => toast.error('Could not delete the schedule', errorMessage(error)),
  });
  const trigger = useBridgeMutation('messages.schedules.trigger', {
    onSuccess: (result) =>
      toast.success(
        `Published ${plural(result.messageIds.length, 'message')}`,
        result.via === 'local'
          ? 'Tagged with the schedule’s id and recorded as its last run.'
          : 'A copy of the schedule’s message: the service has no trigger, so it carries no schedule id.',
      ),
    onError: (error) => toast.error('Could not trigger the schedule', errorMessage(error)),
  });

  const askPause = async (schedule: Schedule) => {
    if (schedule.isPaused) {
      // Resuming publishes again from the next tick: it destroys nothing, but on production it is asked as
      // firmly as a pause (the id typed), with the normal button.
      const resume = await confirmDanger(profile, {
        title: `Resume ${schedule.scheduleId}?`,
        body: 'It publishes again from its next tick; the ticks it missed while paused do not fire.',
        confirmLabel: 'Resume schedule',
        typeOnProd: schedule.scheduleId,
        danger: false,
      });
      if (resume) setPaused.mutate({ profileId: profile.id, scheduleId: schedule.scheduleId, paused: false });
      return;
    }
    const ok = await confirmDanger(profile, {
      title: `Pause ${schedule.scheduleId}?`,
      body: 'It publishes nothing until you resume it; the ticks it misses meanwhile never fire.',
      confirmLabel: 'Pause schedule',
      typeOnProd: schedule.scheduleId,
    });
    if (ok) setPaused.mutate({ profileId: profile.id, scheduleId: schedule.scheduleId, paused: true });
  };
  const askDelete = async (schedule: Schedule) => {
    const ok = await confirmDanger(profile, {
      title: `Delete schedule ${schedule.scheduleId}?`,
      body: 'It stops publishing for good. Messages it already published are delivered as usual.',
      confirmLabel: 'Delete schedule',
      typeOnProd: schedule.scheduleId,
    });
    if (ok) remove.mutate({ profileId: profile.id, scheduleId: schedule.scheduleId });
  };
  const askTrigger = async (schedule: Schedule) => {
    const ok = await confirmDanger(profile, {
      title: `Publish ${schedule.scheduleId} now?`,
      body:
        profile.id === LOCAL_PROFILE_ID
          ? 'One run of its message, now, as a tick would publish it. The next tick stays where it is.'
          : 'The service has no trigger: this publishes a copy of the schedule’s message as its record shows it (callback settings other than the URLs are not in the record).',
      confirmLabel: 'Publish now',
      danger: false,
      typeOnProd: schedule.scheduleId,
    });
    if (ok) trigger.mutate({ profileId: profile.id, scheduleId: schedule.scheduleId });
  };
  // Many at once: the selected rows, or (with none selected) every schedule the search and filter match.
  const filtered = search.trim() !== '' || state !== 'all';
  const jobTarget =
    selection.count > 0
      ? { target: { ids: selection.ids }, description: `the ${plural(selection.count, 'selected schedule')}` }
      : filtered
        ? {
            target: {
              filters: {
                ...(search.trim() ? { search: search.trim() } : {}),
                ...(state !== 'all' ? { state } : {}),
              },
            },
            description: `schedules matching ${[search.trim() && `“${search.trim()}”`, state !== 'all' && STATE_FILTER_LABELS[state].toLowerCase()].filter(Boolean).join(', ')}`,
          }
        : undefined;
  // As on Flow control: with nothing shown (a search or filter matching none, a list not loaded) the bulk
  // actions are off, rather than opening a dialog that only says there is nothing to do.
  const bulkAvailable = jobTarget !== undefined && shown.length > 0;
  const bulkScope = !jobTarget
    ? undefined
    : bulkAvailable
      ? `Acts on ${jobTarget.description}`
      : `No ${jobTarget.description} to act on`;
  const [jobDialog, openJob] = useJobDialog(ScheduleJobDialog, profile, () => selection.clear());
  const startJob = (action: ScheduleJobRequest['action']) => jobTarget && openJob({ action, ...jobTarget });

  return (
    <div className="page-body">
      <div className="stack" style={{ gap: 14 }}>
        <div className="row row-wrap">
          <ToolbarSearch
            label="Search schedules"
            placeholder="Search schedules"
            title="Matches the id, cron, time zone, destination or label"
            value={search}
            onChange={setSearch}
          />
          <Segmented
            label="Show"
            value={state}
            options={STATE_FILTER_LABELS}
            onChange={(value) => setState(value)}
          />
          <span className="spacer" />
          <RefreshButton query={schedules} title="Refresh (also every 5 s)" />
          <WriteButton
            profile={profile}
            variant="primary"
            icon={<PlusIcon />}
            onClick={() => setEditing('new')}
          >
            New schedule
          </WriteButton>
        </div>
        <div className="row row-wrap schedule-bulk" role="group" aria-label="Act on many">
          <span className="muted">
            {bulkScope ? `${bulkScope}:` : 'Select schedules, or search or filter, to act on many:'}
          </span>
          <RowActions
            profile={profile}
            available={bulkAvailable}
            title={bulkScope ?? 'Select schedules, or search or filter to act on every one shown'}
            actions={[
              {
                label: selection.count > 0 ? 'Pause selected…' : 'Pause shown…',
                onClick: () => startJob('pause'),
              },
              {
                label: selection.count > 0 ? 'Resume selected…' : 'Resume shown…',
                onClick: () => startJob('resume'),
              },
              {
                label: selection.count > 0 ? 'Delete selected…' : 'Delete shown…',
                variant: 'danger',
                onClick: () => startJob('delete'),
              },
            ]}
          />
        </div>
        <QueryView query={schedules} failure="Could not load schedules.">
          {(list) =>
            list.length === 0 ? (
              <EmptyState icon={<SendIcon />} title="No schedules yet">
                <p>
                  A schedule publishes its message at each tick of a cron expression. Create one here, or with{' '}
                  <span className="mono">client.schedules.create()</span> in your app.
                </p>
              </EmptyState>
            ) : (
              <section className="card">
                <table className="table schedules-table" aria-label="Schedules">
                  <thead>
                    <tr>
                      <SelectAllCell
                        label="Select every schedule shown"
                        checked={selection.allChecked}
                        onChange={selection.setAll}
                      />
                      <TableHeadCells />
                    </tr>
                  </thead>
                  <tbody>
                    {shown.length === 0 ? (
                      <tr>
                        <td colSpan={7} className="muted">
                          No schedule matches. {list.length} in all.
                        </td>
                      </tr>
                    ) : null}
                    {shown.map((schedule) => (
                      <ScheduleRow
                        key={schedule.scheduleId}
                        schedule={schedule}
                        now={now}
                        focused={schedule.scheduleId === focusId}
                        checked={selection.isChecked(schedule.scheduleId)}
                        onCheck={(on) => selection.toggle(schedule.scheduleId, on)}
                        actions={
                          <div className="schedule-actions">
                            <div className="row">
                              <WriteButton
                                profile={profile}
                                size="sm"
                                disabled={setPaused.isPending}
                                onClick={() => void askPause(schedule)}
                              >
                                {schedule.isPaused ? 'Resume' : 'Pause'}
                              </WriteButton>
                              <WriteButton profile={profile} size="sm" onClick={() => setEditing(schedule)}>
                                Edit
                              </WriteButton>
                              <Button
                                size="sm"
                                variant="ghost"
                                onClick={() => openLogs({ scheduleId: schedule.scheduleId })}
                              >
                                Logs
                              </Button>
                            </div>
                            <div className="row">
                              <WriteButton
                                profile={profile}
                                size="sm"
                                icon={<SendIcon />}
                                busy={
                                  trigger.isPending && trigger.variables?.scheduleId === schedule.scheduleId
                                }
                                onClick={() => void askTrigger(schedule)}
                              >
                                Trigger now
                              </WriteButton>
                              <RemoveRowButton
                                profile={profile}
                                label={`Delete ${schedule.scheduleId}`}
                                title="Delete schedule"
                                onClick={() => void askDelete(schedule)}
                              />
                            </div>
                          </div>
                        }
                      />
                    ))}
                  </tbody>
                </table>
              </section>
            )
          }
        </QueryView>
      </div>
      {jobDialog}
      {editing ? (
        <ScheduleDialog
          profile={profile}
          schedule={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </div>
  );
}

function TableHeadCells() {
  return (
    <>
      {['Schedule', 'Next fire times', 'State', 'Last run', 'Destination'].map((title) => (
        <th key={title}>{title}</th>
      ))}
      <UntitledHeader name="Actions" />
    </>
  );
}

function ScheduleRow({
  schedule,
  now,
  focused,
  checked,
  onCheck,
  actions,
}: {
  schedule: Schedule;
  now: number;
  focused: boolean;
  checked: boolean;
  onCheck: (on: boolean) => void;
  actions: React.ReactNode;
}) {
  const zone = zoneOf(schedule.cron);
  const next = nextFireTimes(schedule, now);
  const run = runSummary(schedule);
  const destination = destinationText(schedule);
  const method = schedule.method !== 'POST' ? ` (${schedule.method})` : '';
  return (
    <tr data-testid={`schedule-${schedule.scheduleId}`} className={focused ? 'row-focused' : undefined}>
      <SelectCell label={`Select ${schedule.scheduleId}`} checked={checked} onChange={onCheck} />
      <td>
        <div className="schedule-name mono">
          <strong>{schedule.scheduleId}</strong>
        </div>
        <div>{describeCron(schedule.cron)}</div>
        <div className="muted mono schedule-cron">{schedule.cron}</div>
      </td>
      <td>
        {next.length === 0 ? (
          <span className="muted">—</span>
        ) : (
          <ol className="schedule-next" aria-label={`Next fire times of ${schedule.scheduleId}`}>
            {next.map((time, index) => (
              <li
                key={time}
                title={`${formatTime(time)} your time`}
                className={index > 0 ? 'muted' : undefined}
              >
                {formatInZone(time, zone)}
              </li>
            ))}
          </ol>
        )}
      </td>
      <td>
        {schedule.isPaused ? <Badge tone="warning">Paused</Badge> : <Badge tone="success">Active</Badge>}
      </td>
      <td>
        {schedule.lastScheduleTime === undefined ? (
          <span className="muted">never</span>
        ) : (
          <div className="stack" style={{ gap: 4 }}>
            <span title={formatTime(schedule.lastScheduleTime)}>
              {formatRelative(schedule.lastScheduleTime)}
            </span>
            <span className="row row-wrap" style={{ gap: 4 }}>
              {run.counts.SUCCESS > 0 ? <Badge tone="success">{run.counts.SUCCESS} delivered</Badge> : null}
              {run.counts.IN_PROGRESS > 0 ? (
                <Badge tone="info">{run.counts.IN_PROGRESS} in progress</Badge>
              ) : null}
              {run.counts.FAIL > 0 ? <Badge tone="danger">{run.counts.FAIL} failed</Badge> : null}
            </span>
            {run.error ? <span className="field-error">{run.error}</span> : null}
          </div>
        )}
      </td>
      <td className="mono schedule-destination">
        {/* One line cut with an ellipsis; the tooltip has the whole destination. */}
        <span className="truncate" title={destination + method}>
          {destination}
          {method ? <span className="muted">{method}</span> : null}
        </span>
      </td>
      <td className="cell-actions">{actions}</td>
    </tr>
  );
}
