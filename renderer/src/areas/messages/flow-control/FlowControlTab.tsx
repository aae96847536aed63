// Flow control: every flow-control key with what waits and what is in use against its limits, refreshed
// every 2 s; the opened key beside the list with its history chart and its actions (pause/resume, pin,
// unpin, reset the rate); pause, resume or reset the rate of every key shown, as a job (FlowKeyJob.tsx).
// Route: #/messages/flow-control[/<key>[/<messageId>]] — a message id names the message whose "why is
// this not delivered?" brought the user here.
import { useMemo } from 'react';
import { create } from 'zustand';
import type { ProfileView } from '../../../../../shared/profiles';
import { ActiveService } from '../../../shell/ActiveService';
import { useScreenRoute } from '../../../shell/screen-route';
import { Switch } from '../../../ui/fields';
import { plural } from '../../../ui/format';
import { GaugeIcon } from '../../../ui/icons';
import { ListBody } from '../../../ui/list/ListBody';
import { notLoaded } from '../../../ui/Waiting';
import { ListToolbar } from '../../../ui/list/ListToolbar';
import { ListWithDetail } from '../../../ui/list/ListWithDetail';
import { EmptyState } from '../../../ui/misc';
import { ToolbarSearch } from '../../../ui/ToolbarInput';
import { useBridgeQuery } from '../../../bridge/react';
import {
  FLOW_CONTROL_REFRESH_MS,
  flowKeyFilters,
  type FlowKeySort,
  type FlowKeyView,
  visibleKeys,
} from './flow-control-model';
import { FlowKeyDetail } from './FlowKeyDetail';
import { FlowKeyJobActions } from './FlowKeyJob';
import { FlowKeyList } from './FlowKeyList';
import './flow-control.css';
import { pollEvery } from '../../../bridge/polling';

/** The list's search, filter and order, kept while the user moves between tabs. */
export const useFlowControlUi = create<FlowKeyView & { set: (patch: Partial<FlowKeyView>) => void }>(
  (set) => ({
    search: '',
    waitingOnly: false,
    sort: 'waiting',
    set: (patch) => set(patch),
  }),
);

export default function FlowControlTab({ params }: { params: string[] }) {
  return (
    <ActiveService>
      {(profile) => <FlowControl profile={profile} flowKey={params[0]} messageId={params[1]} />}
    </ActiveService>
  );
}

function FlowControl({
  profile,
  flowKey,
  messageId,
}: {
  profile: ProfileView;
  flowKey?: string;
  messageId?: string;
}) {
  const screen = useScreenRoute();
  const view = useFlowControlUi();
  const overview = useBridgeQuery(
    'messages.flowControl.list',
    { profileId: profile.id },
    { refetchInterval: pollEvery(FLOW_CONTROL_REFRESH_MS) },
  );
  const keys = useMemo(() => overview.data?.keys ?? [], [overview.data]);
  const shown = useMemo(
    () => visibleKeys(keys, { search: view.search, waitingOnly: view.waitingOnly, sort: view.sort }),
    [keys, view.search, view.waitingOnly, view.sort],
  );
  const waitingKeys = useMemo(() => keys.filter((key) => key.waitListSize > 0).length, [keys]);
  const global = overview.data?.global;

  return (
    <div className="fc-tab">
      <ListToolbar
        className="fc-toolbar"
        testId="fc-summary"
        failed={notLoaded(overview)}
        summary={
          overview.data
            ? `${plural(keys.length, 'key')} · ${waitingKeys.toLocaleString()} with waiting messages${
                global
                  ? ` · ${global.parallelismCount.toLocaleString()} of ${global.parallelismMax.toLocaleString()} in flight over all keys`
                  : ''
              }`
            : undefined
        }
        controls={
          <>
            <ToolbarSearch
              label="Search keys"
              placeholder="Search keys"
              value={view.search}
              onChange={(search) => view.set({ search })}
            />
            <Switch
              label="Waiting only"
              checked={view.waitingOnly}
              onChange={(waitingOnly) => view.set({ waitingOnly })}
            />
            <label className="fc-sort">
              <span className="muted">Order</span>
              <select
                className="select"
                aria-label="Order keys by"
                value={view.sort}
                onChange={(event) => view.set({ sort: event.target.value as FlowKeySort })}
              >
                <option value="waiting">Most waiting</option>
                <option value="inflight">Most in flight</option>
                <option value="key">Key</option>
              </select>
            </label>
          </>
        }
        refreshing={overview.isFetching && !overview.isLoading}
        onRefresh={() => void overview.refetch()}
      >
        <FlowKeyJobActions profile={profile} filters={flowKeyFilters(view)} shown={shown.length} />
      </ListToolbar>
      {overview.data && !overview.data.detailed ? (
        <p className="fc-note muted">
          This service lists keys with their waiting counts only: open a key for its limits and what is in
          use.
        </p>
      ) : null}
      <ListWithDetail
        open={flowKey}
        detail={(key) => <FlowKeyDetail profile={profile} flowKey={key} messageId={messageId} />}
      >
        <ListBody
          query={overview}
          failure="Could not load the flow-control keys."
          empty={
            shown.length === 0 ? (
              <EmptyState
                icon={<GaugeIcon />}
                title={keys.length === 0 ? 'No flow-control keys yet' : 'No key matches'}
              >
                <p>
                  {keys.length === 0
                    ? 'A key appears once a message or workflow run is published with Upstash-Flow-Control-Key.'
                    : view.waitingOnly
                      ? 'No matching key has waiting messages.'
                      : 'Nothing matches this search.'}
                </p>
              </EmptyState>
            ) : undefined
          }
        >
          <FlowKeyList keys={shown} selectedKey={flowKey} compact={Boolean(flowKey)} onOpen={screen.open} />
        </ListBody>
      </ListWithDetail>
    </div>
  );
}
