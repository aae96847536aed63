// The virtualized list of flow-control keys (thousands scroll smoothly: only the rows on screen are in the
// DOM): each key's state, what waits, in flight against parallelism and the rate used in the current
// period against its limit. Arrow keys (and j/k) move through the keys and open them.
import { memo } from 'react';
import type { FlowControlInfo } from '../../../../../shared/messages/flow-control';
import { ItemList, listboxOption, moveSelection, useItemRows } from '../../../ui/list/VirtualRows';
import { periodText, usage } from './flow-control-model';
import { FlowKeyBadges } from './FlowKeyBadges';

export const FLOW_KEY_ROW_HEIGHT = 44;
const keyName = (info: FlowControlInfo) => info.flowControlKey;

/** What every row is shown and opened with (the list passes them on unchanged). */
interface KeyRowContext {
  /** Narrow, beside an open key. */
  compact: boolean;
  onOpen: (key: string) => void;
}

export function FlowKeyList({
  keys,
  selectedKey,
  ...context
}: { keys: readonly FlowControlInfo[]; selectedKey?: string } & KeyRowContext) {
  const { compact, onOpen } = context;
  const rows = useItemRows(keys, keyName, { rowHeight: FLOW_KEY_ROW_HEIGHT });
  const selectedIndex = keys.findIndex((key) => key.flowControlKey === selectedKey);
  const move = (delta: number) =>
    moveSelection(rows, keys, selectedIndex, delta, (key) => onOpen(key.flowControlKey));

  return (
    <div className={compact ? 'fc-list-wrap fc-list-compact' : 'fc-list-wrap'}>
      <div className="list-row list-row-head fc-row" role="presentation">
        <span>Key</span>
        <span className="num">Waiting</span>
        <span>In flight</span>
        {compact ? null : <span>Rate in this period</span>}
      </div>
      <ItemList
        rows={rows}
        className="fc-list"
        role="listbox"
        label="Flow-control keys"
        onMove={move}
        activeKey={selectedKey}
      >
        {(key) => <FlowKeyRow info={key} selected={key.flowControlKey === selectedKey} {...context} />}
      </ItemList>
    </div>
  );
}

const FlowKeyRow = memo(function FlowKeyRow({
  info,
  selected,
  compact,
  onOpen,
}: { info: FlowControlInfo; selected: boolean } & KeyRowContext) {
  const inflight = usage(info.parallelismCount, info.parallelismMax);
  const rate = usage(info.rateCount, info.rateMax);
  return (
    <div
      className="list-row fc-row"
      {...listboxOption('fc-list', info.flowControlKey, selected, () => onOpen(info.flowControlKey))}
      data-key={info.flowControlKey}
    >
      <span className="fc-row-key">
        <span className="mono fc-key-name">{info.flowControlKey}</span>
        <FlowKeyBadges info={info} />
      </span>
      <span className={info.waitListSize > 0 ? 'num fc-waiting has-waiting' : 'num fc-waiting'}>
        {info.waitListSize.toLocaleString()}
      </span>
      {/* What the column's header says of the number, for a screen reader (placed out of the grid). */}
      <span className="visually-hidden">waiting</span>
      <Meter text={inflight.text} ratio={inflight.ratio} label="In flight" />
      {compact ? null : (
        <Meter
          text={info.rateMax > 0 ? `${rate.text} ${periodText(info.ratePeriod)}` : rate.text}
          ratio={rate.ratio}
          label="Rate used"
        />
      )}
    </div>
  );
});

/** A count against its limit as text and a thin bar (full when the limit is reached). */
export function Meter({ text, ratio, label }: { text: string; ratio: number | undefined; label: string }) {
  return (
    <span className="fc-meter" role="img" aria-label={`${label}: ${text}`}>
      <span className="fc-meter-text">{text}</span>
      {ratio === undefined ? null : (
        <span className={ratio >= 1 ? 'fc-meter-bar is-full' : 'fc-meter-bar'}>
          <span style={{ width: `${Math.round(ratio * 100)}%` }} />
        </span>
      )}
    </span>
  );
}
