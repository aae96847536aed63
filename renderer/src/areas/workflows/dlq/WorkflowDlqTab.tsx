// DLQ triage: the failed runs grouped by failure — workflow URL + failing step + status + error
// signature — with counts and first/last seen, so "812 runs failed at step charge with 503" is one row.
// Act on groups, on a hand selection of runs inside them, or on the filter.
import { useQueryClient } from '@tanstack/react-query';
import { Fragment, useMemo, useState } from 'react';
import { hasAnyFilter } from '../../../../../shared/bridge/job';
import type { DlqAction, FailureGroup } from '../../../../../shared/bridge/procedures/workflows/dlq';
import type { WorkflowDlqFiltersInput } from '../../../../../shared/bridge/procedures/workflows/filters';
import type { ProfileView } from '../../../../../shared/profiles';
import { useBridgeQuery } from '../../../bridge/react';
import { ActiveService } from '../../../shell/ActiveService';
import { useNav } from '../../../shell/nav';
import { Button } from '../../../ui/Button';
import { splitList, toDateRange } from '../../../ui/filter-draft';
import { FilterBar, type FilterForm, type TextFilter } from '../../../ui/FilterBar';
import { formatRelative, formatTime, plural } from '../../../ui/format';
import { ChevronDownIcon, ChevronRightIcon, InboxIcon, RefreshIcon } from '../../../ui/icons';
import { InAppLink } from '../../../ui/InAppLink';
import { useJobDialog } from '../../../ui/job/useJobDialog';
import { Callout, EmptyState } from '../../../ui/misc';
import { QueryView } from '../../../ui/QueryView';
import { RowActions } from '../../../ui/RowActions';
import '../../../ui/tables.css';
import { TableHead, UntitledHeader } from '../../../ui/TableHead';
import { WorkflowDlqJobDialog } from './WorkflowDlqJobDialog';

export default function WorkflowDlqTab() {
  return <ActiveService>{(profile) => <Triage profile={profile} />}</ActiveService>;
}

interface Draft {
  workflowUrl: string;
  label: string;
  from: string;
  to: string;
}

const EMPTY: Draft = { workflowUrl: '', label: '', from: '', to: '' };

// Placeholders as short as the message filters' ("https://…, …"); the comma rule is in the title.
const DLQ_TEXT_FILTERS: TextFilter<Draft>[] = [
  {
    key: 'workflowUrl',
    label: 'Workflow URL',
    placeholder: 'https://…, …',
    title: 'A workflow URL, or several separated by commas',
    wide: true,
  },
  {
    key: 'label',
    label: 'Label',
    placeholder: 'checkout, …',
    title: 'A label, or several separated by commas',
  },
];

function toFilters(draft: Draft): { filters: WorkflowDlqFiltersInput; error?: string } {
  const { fromDate, toDate, error } = toDateRange(draft.from, draft.to);
  const filters: WorkflowDlqFiltersInput = {};
  const urls = splitList(draft.workflowUrl);
  const labels = splitList(draft.label);
  if (urls) filters.workflowUrl = urls;
  if (labels) filters.label = labels;
  if (fromDate !== undefined) filters.fromDate = fromDate;
  if (toDate !== undefined) filters.toDate = toDate;
  return error ? { filters, error } : { filters };
}

export function groupTitle(group: Pick<FailureGroup, 'stepName' | 'status' | 'count'>): string {
  return `${plural(group.count, 'run')} failed at ${group.stepName ? `step ${group.stepName}` : 'an unnamed step'} with ${group.status || 'no response'}`;
}

function Triage({ profile }: { profile: ProfileView }) {
  const queryClient = useQueryClient();
  const navigate = useNav((state) => state.navigate);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [applied, setApplied] = useState<Draft>(EMPTY);
  const { filters, error: filterError } = useMemo(() => toFilters(applied), [applied]);
  const groups = useBridgeQuery(
    'workflows.dlq.groups',
    { profileId: profile.id, filters },
    { enabled: !filterError },
  );
  const [checked, setChecked] = useState<Set<string>>(() => new Set());
  const [open, setOpen] = useState<string | null>(null);
  const [jobDialog, openJob] = useJobDialog(WorkflowDlqJobDialog, profile, () => setChecked(new Set()));
  const data = groups.data;
  const selectedGroups = (data?.groups ?? []).filter((group) => group.dlqIds.some((id) => checked.has(id)));
  const canFilter = hasAnyFilter(filters as Record<string, unknown>);

  const toggle = (ids: string[], on: boolean) =>
    setChecked((current) => {
      const next = new Set(current);
      for (const id of ids) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });
  const act = (action: DlqAction, scope: 'selection' | 'filter') => {
    if (scope === 'filter') {
      openJob({ action, target: { filters }, description: 'every failed run matching the filter' });
      return;
    }
    const ids = [...checked];
    const description =
      selectedGroups.length === 1 &&
      selectedGroups[0]!.dlqIds.every((id) => checked.has(id)) &&
      selectedGroups[0]!.count === ids.length
        ? `the group “${groupTitle(selectedGroups[0]!)}: ${selectedGroups[0]!.signature}”`
        : `${plural(ids.length, 'selected run')} in ${plural(selectedGroups.length, 'group')}`;
    openJob({ action, target: { ids }, description });
  };
  const filterForm: FilterForm<Draft> = {
    draft,
    setDraft: (patch) => setDraft({ ...draft, ...patch }),
    apply: () => {
      setApplied(draft);
      setChecked(new Set());
    },
    clear: () => {
      setDraft(EMPTY);
      setApplied(EMPTY);
      setChecked(new Set());
    },
  };
  const refresh = () => {
    setChecked(new Set());
    void queryClient.invalidateQueries({ queryKey: ['workflows.dlq.groups'] });
  };

  return (
    <div className="wf-tab">
      <FilterBar label="Filter the workflow DLQ" form={filterForm} fields={DLQ_TEXT_FILTERS} />
      {filterError ? <Callout tone="danger">{filterError}</Callout> : null}
      <div className="toolbar wf-toolbar">
        <span>
          {checked.size > 0 ? (
            <strong>{plural(checked.size, 'run')} selected</strong>
          ) : data ? (
            <span className="faint">
              {plural(data.scanned, 'failed run')} in {plural(data.groups.length, 'group')}
              {data.capped ? ' (looked at the first ones only)' : ''}
            </span>
          ) : null}
        </span>
        <span className="toolbar-spacer" />
        <Button size="sm" icon={<RefreshIcon />} onClick={refresh} busy={groups.isFetching}>
          Refresh
        </Button>
        <RowActions
          profile={profile}
          available={checked.size > 0}
          actions={[
            { label: 'Restart / resume…', variant: 'primary', onClick: () => act('restart', 'selection') },
            { label: 'Retry failure function…', onClick: () => act('callback', 'selection') },
            { label: 'Delete…', variant: 'danger', onClick: () => act('delete', 'selection') },
          ]}
        />
        <RowActions
          profile={profile}
          available={canFilter}
          title={
            canFilter
              ? 'Act on every failed run the filter matches'
              : 'Set a filter first: an empty filter would mean the whole DLQ'
          }
          actions={[{ label: 'Restart / resume all matching…', onClick: () => act('restart', 'filter') }]}
        />
      </div>
      <div className="wf-scroll">
        <QueryView query={groups} failure="Could not read the DLQ.">
          {(data) =>
            data.groups.length === 0 ? (
              <EmptyState icon={<InboxIcon />} title="No failed runs">
                Runs that run out of retries land here, grouped by how they failed.
              </EmptyState>
            ) : (
              <table className="table wf-groups" aria-label="Failures">
                <TableHead
                  columns={['Runs', 'Workflow · step', 'Status', 'Error', 'First seen', 'Last seen']}
                >
                  <UntitledHeader name="Select" />
                </TableHead>
                <tbody>
                  {data.groups.map((group) => {
                    const all = group.dlqIds.every((id) => checked.has(id));
                    const some = !all && group.dlqIds.some((id) => checked.has(id));
                    return (
                      <Fragment key={group.key}>
                        <tr className="wf-group-row" data-testid="failure-group">
                          <td>
                            <input
                              type="checkbox"
                              aria-label={`Select ${groupTitle(group)}`}
                              checked={all}
                              ref={(node) => {
                                if (node) node.indeterminate = some;
                              }}
                              onChange={(event) => toggle(group.dlqIds, event.target.checked)}
                            />
                          </td>
                          <td>
                            <button
                              type="button"
                              className="wf-group-count"
                              aria-expanded={open === group.key}
                              onClick={() => setOpen(open === group.key ? null : group.key)}
                            >
                              {group.count.toLocaleString()}{' '}
                              {open === group.key ? (
                                <ChevronDownIcon width={12} height={12} />
                              ) : (
                                <ChevronRightIcon width={12} height={12} />
                              )}
                            </button>
                          </td>
                          <td>
                            <div className="mono">{group.workflowUrl}</div>
                            <div>
                              {group.stepName ? (
                                <>
                                  step <strong className="mono">{group.stepName}</strong>
                                </>
                              ) : (
                                <span className="faint">step not named</span>
                              )}
                            </div>
                          </td>
                          <td className="mono">{group.status || '—'}</td>
                          <td className="cell-wrap">
                            <div className="mono">{group.signature}</div>
                            {group.sample !== group.signature ? (
                              <div className="faint">e.g. {group.sample.slice(0, 200)}</div>
                            ) : null}
                          </td>
                          <td title={formatTime(group.firstSeen)}>{formatRelative(group.firstSeen)}</td>
                          <td title={formatTime(group.lastSeen)}>{formatRelative(group.lastSeen)}</td>
                        </tr>
                        {open === group.key ? (
                          <tr className="wf-group-runs">
                            <td />
                            <td colSpan={6}>
                              <ul className="wf-group-run-list">
                                {group.dlqIds.slice(0, 500).map((dlqId, index) => (
                                  <li key={dlqId}>
                                    <label>
                                      <input
                                        type="checkbox"
                                        checked={checked.has(dlqId)}
                                        onChange={(event) => toggle([dlqId], event.target.checked)}
                                      />{' '}
                                      <span className="mono">{group.workflowRunIds[index]}</span>
                                    </label>{' '}
                                    <InAppLink
                                      href="#/workflows/runs"
                                      onOpen={() =>
                                        navigate('workflows', 'runs', group.workflowRunIds[index]!)
                                      }
                                    >
                                      open
                                    </InAppLink>
                                  </li>
                                ))}
                              </ul>
                              {group.dlqIds.length > 500 ? (
                                <p className="faint">
                                  …and {group.dlqIds.length - 500} more (select the group to act on all).
                                </p>
                              ) : null}
                            </td>
                          </tr>
                        ) : null}
                      </Fragment>
                    );
                  })}
                </tbody>
              </table>
            )
          }
        </QueryView>
      </div>
      {jobDialog}
    </div>
  );
}
