// Runs: filters as chips (every filter of the logs endpoint), saved views kept by main, counts per state
// with runs per minute, the virtualized run list (loading ahead 10 runs per service page, live refresh
// of the newest page that keeps scroll and selection), and the open run beside it.
import { useMemo, useState } from 'react';
import type { RunFilters } from '../../../../../shared/bridge/procedures/workflows/filters';
import type { RunSummary } from '../../../../../shared/bridge/procedures/workflows/runs';
import type { ProfileView } from '../../../../../shared/profiles';
import { LOG_STATE_FILTERS } from '../../../../../shared/workflows/types';
import { errorMessage } from '../../../bridge/client';
import { useBridgeMutation, useBridgeQuery } from '../../../bridge/react';
import { ActiveService } from '../../../shell/ActiveService';
import { useScreenRoute } from '../../../shell/screen-route';
import { Button } from '../../../ui/Button';
import { RemovableChip } from '../../../ui/Chip';
import { Switch } from '../../../ui/fields';
import { Form } from '../../../ui/Form';
import { WorkflowIcon } from '../../../ui/icons';
import { ListBody } from '../../../ui/list/ListBody';
import { notLoaded } from '../../../ui/Waiting';
import { ListWithDetail } from '../../../ui/list/ListWithDetail';
import { ListToolbar } from '../../../ui/list/ListToolbar';
import { usePagedBridgeQuery } from '../../../ui/list/use-paged-bridge-query';
import { plural } from '../../../ui/format';
import { useSelection } from '../../../ui/list/use-selection';
import { EmptyState } from '../../../ui/misc';
import { ToolbarSearch } from '../../../ui/ToolbarInput';
import { toast } from '../../../ui/toast';
import { RunDetail } from '../run/RunDetail';
import {
  addFilter,
  chipsOf,
  FILTER_FIELDS,
  type FilterField,
  removeChip,
  STATE_LABELS,
  useRunsUi,
} from './run-filters';
import { RunCancelActions } from './RunCancelJob';
import { RunList, runKey, type RunSort, sortRuns } from './RunList';
import { RunStats } from './RunStats';
import { pollEvery } from '../../../bridge/polling';

export default function RunsTab({ params }: { params: string[] }) {
  const [runId, createdAt] = params;
  return (
    <ActiveService>
      {(profile) => (
        <Runs
          profile={profile}
          runId={runId}
          createdAt={createdAt && /^\d+$/.test(createdAt) ? Number(createdAt) : undefined}
        />
      )}
    </ActiveService>
  );
}

/** Service pages (10 runs each) per bridge call while scrolling. */
const PAGES_PER_LOAD = 5;

function Runs({ profile, runId, createdAt }: { profile: ProfileView; runId?: string; createdAt?: number }) {
  const screen = useScreenRoute();
  const filters = useRunsUi((state) => state.applied);
  const setFilters = useRunsUi((state) => state.show);
  const [sort, setSort] = useState<RunSort>({ column: 'created', descending: true });
  const [live, setLive] = useState(false);
  // The search box's text, and the search applied (on Enter; clearing the box clears it).
  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState<string>();

  const list = usePagedBridgeQuery(
    'workflows.runs.list',
    { profileId: profile.id, filters, pages: PAGES_PER_LOAD, search },
    'runs',
    { staleTime: Infinity },
  );
  // The newest page: polled while Live is on, and read again whenever the list is shown or the window
  // gets focus (so a list left with Live off is never silently stale). Loaded runs take its fresh state;
  // new runs go on top with Live on, and are offered ("3 new runs") with it off.
  const head = useBridgeQuery(
    'workflows.runs.list',
    { profileId: profile.id, filters, pages: 1, search },
    {
      refetchInterval: pollEvery(live ? 2500 : false),
      refetchOnWindowFocus: 'always',
      refetchOnMount: 'always',
      staleTime: 0,
    },
  );
  const newer = useMemo(() => newRuns(list.items, head.data?.runs ?? []), [list.items, head.data]);
  const loaded = useMemo(() => {
    const byKey = new Map<string, RunSummary>();
    for (const run of list.items) byKey.set(runKey(run), run);
    for (const run of head.data?.runs ?? []) {
      if (live || byKey.has(runKey(run))) byKey.set(runKey(run), run);
    }
    return [...byKey.values()];
  }, [list.items, head.data, live]);
  const runs = useMemo(() => sortRuns(loaded, sort), [loaded, sort]);
  // Checked runs, for a cancel job: active ones only (only they can be cancelled).
  const selection = useSelection(
    useMemo(
      () => runs.filter((run) => run.workflowState === 'RUN_STARTED').map((run) => run.workflowRunId),
      [runs],
    ),
  );
  const selected = runId
    ? runs.find(
        (run) =>
          run.workflowRunId === runId && (createdAt === undefined || run.workflowRunCreatedAt === createdAt),
      )
    : undefined;

  const open = (run: RunSummary) => screen.open(run.workflowRunId, String(run.workflowRunCreatedAt));

  return (
    <div className="wf-tab">
      <RunFilterBar profile={profile} filters={filters} onChange={setFilters} />
      <ListToolbar
        lead={<RunStats runs={loaded} hasMore={list.hasMore} />}
        failed={notLoaded(list.query)}
        controls={
          <>
            {!live && newer > 0 ? (
              <Button size="sm" variant="primary" onClick={list.reset} data-testid="new-runs">
                {plural(newer, 'new run')} — show
              </Button>
            ) : null}
            <ToolbarSearch
              label="Search runs"
              placeholder="Search payload, output, error (Enter)"
              value={searchText}
              onChange={(text) => {
                setSearchText(text);
                if (text.trim() === '') setSearch(undefined);
              }}
              onEnter={(text) => setSearch(text.trim() || undefined)}
            />
            <Switch label="Live" checked={live} onChange={setLive} />
          </>
        }
        refreshing={list.refreshing}
        onRefresh={list.reset}
        className="wf-toolbar"
        selected={selection.count}
      >
        <RunCancelActions
          profile={profile}
          selected={selection.ids}
          filters={filters}
          searching={Boolean(search)}
          onEnded={() => {
            selection.clear();
            list.reset();
          }}
        />
      </ListToolbar>
      {search ? <SearchScope scope={list.query.data?.pages[0]?.search} /> : null}
      <ListWithDetail
        mainClassName="wf-list"
        open={runId}
        detail={(id) => (
          <RunDetail
            // A run id may be reused by a new run: its creation time tells the two apart.
            key={createdAt}
            profile={profile}
            runId={id}
            createdAt={createdAt}
            live={live || selected?.workflowState === 'RUN_STARTED'}
            onChanged={list.reset}
          />
        )}
      >
        <ListBody
          query={list.query}
          failure="Could not load runs."
          empty={
            list.loaded && runs.length === 0 ? (
              <EmptyState icon={<WorkflowIcon />} title="No runs">
                {search
                  ? `No run's payload, output or error contains “${search}”${chipsOf(filters).length > 0 ? ' among the filtered runs' : ''}.`
                  : chipsOf(filters).length > 0
                    ? 'No run matches these filters.'
                    : 'Trigger a workflow with the SDK (client.trigger) and its runs appear here.'}
              </EmptyState>
            ) : undefined
          }
        >
          <RunList
            runs={runs}
            selectedKey={selected ? runKey(selected) : undefined}
            hasMore={list.hasMore}
            loadingMore={list.loadingMore || !list.loaded}
            onLoadMore={list.loadMore}
            onOpen={open}
            sort={sort}
            onSort={setSort}
            compact={Boolean(runId)}
            checks={{ isChecked: selection.isChecked, onCheck: selection.toggle }}
          />
        </ListBody>
      </ListWithDetail>
    </div>
  );
}

/** Runs of the newest page that are newer than every loaded run (what Refresh would add on top). */
export function newRuns(loaded: readonly RunSummary[], head: readonly RunSummary[]): number {
  if (loaded.length === 0) return 0;
  const keys = new Set(loaded.map(runKey));
  const newest = Math.max(...loaded.map((run) => run.workflowRunCreatedAt));
  return head.filter((run) => !keys.has(runKey(run)) && run.workflowRunCreatedAt > newest).length;
}

/** What a search covered: every run (the local stack's index) or only the pages main read (the cloud). */
function SearchScope({ scope }: { scope?: { scope: 'index' | 'loaded'; searched?: number } }) {
  if (!scope) return null;
  return (
    <p className="wf-search-scope faint" data-testid="search-scope">
      {scope.scope === 'index'
        ? 'Searching every run’s payload, outputs and errors (the local stack’s text index).'
        : `The service has no text search: searched the payload, outputs and errors of the ${plural(scope.searched ?? 0, 'run')} read so far; scroll for more.`}
    </p>
  );
}

/** The add-filter form (a draft: nothing in it is applied until Add filter), saved views and the chips. */
export function RunFilterBar({
  profile,
  filters,
  onChange,
}: {
  profile: ProfileView;
  filters: RunFilters;
  onChange: (filters: RunFilters) => void;
}) {
  const [field, setField] = useState<FilterField>('state');
  // The draft starts empty: a preselected state would read as a filter that is not applied.
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();
  const [naming, setNaming] = useState<string | null>(null);
  const views = useBridgeQuery('workflows.views.list', { profileId: profile.id });
  const save = useBridgeMutation('workflows.views.save', {
    onSuccess: (view) => toast.success(`Saved view “${view.name}”`),
    onError: (e) => toast.error('Could not save the view', errorMessage(e)),
  });
  const remove = useBridgeMutation('workflows.views.delete');
  const chips = chipsOf(filters);
  const inputType = field === 'fromDate' || field === 'toDate' ? 'datetime-local' : 'text';

  const add = () => {
    const result = addFilter(filters, field, text);
    if ('error' in result) {
      setError(result.error);
      return;
    }
    setError(undefined);
    onChange(result.filters);
    setText('');
  };

  return (
    <div className="wf-filters">
      <Form className="row row-wrap wf-filter-add" aria-label="Add a run filter" onSubmit={() => add()}>
        <select
          className="input"
          aria-label="Filter"
          value={field}
          onChange={(event) => {
            const next = event.target.value as FilterField;
            setField(next);
            setText('');
            setError(undefined);
          }}
        >
          {FILTER_FIELDS.map((entry) => (
            <option key={entry.id} value={entry.id}>
              {entry.label}
            </option>
          ))}
        </select>
        {field === 'state' ? (
          <select
            className="input"
            aria-label="State"
            value={text}
            onChange={(event) => setText(event.target.value)}
          >
            <option value="" disabled>
              Pick a state…
            </option>
            {LOG_STATE_FILTERS.map((state) => (
              <option key={state} value={state}>
                {STATE_LABELS[state]}
              </option>
            ))}
          </select>
        ) : (
          <input
            className="input input-mono"
            aria-label="Filter value"
            type={inputType}
            value={text}
            placeholder={
              field === 'label'
                ? 'one, or several separated by commas'
                : field === 'workflowUrl'
                  ? 'https://…'
                  : ''
            }
            onChange={(event) => setText(event.target.value)}
          />
        )}
        <Button size="sm" type="submit">
          Add filter
        </Button>
        {error ? (
          <span className="field-error" role="alert">
            {error}
          </span>
        ) : null}
        <span className="toolbar-spacer" />
        <select
          className="input"
          aria-label="Saved views"
          value=""
          onChange={(event) => {
            const view = views.data?.find((candidate) => candidate.id === event.target.value);
            if (view) onChange(view.filters);
          }}
        >
          <option value="">Saved views{views.data?.length ? ` (${views.data.length})` : ''}</option>
          {views.data?.map((view) => (
            <option key={view.id} value={view.id}>
              {view.name}
            </option>
          ))}
        </select>
        {naming === null ? (
          <Button
            size="sm"
            disabled={chips.length === 0}
            onClick={() =>
              setNaming(
                chips
                  .map((chip) => chip.text)
                  .join(', ')
                  .slice(0, 60),
              )
            }
          >
            Save view
          </Button>
        ) : (
          <>
            <input
              className="input"
              aria-label="View name"
              autoFocus
              value={naming}
              onChange={(event) => setNaming(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === 'Enter') {
                  event.preventDefault();
                  if (naming.trim()) save.mutate({ profileId: profile.id, name: naming.trim(), filters });
                  setNaming(null);
                } else if (event.key === 'Escape') setNaming(null);
              }}
            />
            <Button
              size="sm"
              variant="primary"
              disabled={!naming.trim()}
              onClick={() => {
                save.mutate({ profileId: profile.id, name: naming.trim(), filters });
                setNaming(null);
              }}
            >
              Save
            </Button>
          </>
        )}
      </Form>
      <div className="wf-chips" role="group" aria-label="Applied filters">
        {chips.length === 0 ? <span className="faint">All runs, newest first</span> : null}
        {chips.map((chip) => (
          <RemovableChip
            key={`${chip.field}:${chip.value}`}
            text={chip.text}
            onRemove={() => onChange(removeChip(filters, chip))}
          />
        ))}
        {chips.length > 1 ? (
          <Button size="sm" variant="ghost" onClick={() => onChange({})}>
            Clear all
          </Button>
        ) : null}
        {views.data?.map((view) =>
          JSON.stringify(view.filters) === JSON.stringify(filters) ? (
            <Button
              key={view.id}
              size="sm"
              variant="ghost"
              onClick={() => remove.mutate({ profileId: profile.id, id: view.id })}
            >
              Delete view “{view.name}”
            </Button>
          ) : null,
        )}
      </div>
    </div>
  );
}
