// The header of a detail panel beside a list (a message's trail, a DLQ entry, a workflow run): what it
// shows and its id, the panel's actions, and the close button at the far end. The button goes back to the
// list screen's own address (useScreenRoute), which closes the panel, unless the panel says otherwise.
import type { ReactNode } from 'react';
import { useScreenRoute } from '../shell/screen-route';
import { Button } from './Button';
import './detail-panel.css';
import { XIcon } from './icons';

export function DetailPanelHeader({
  kind,
  id,
  badge,
  closeLabel = 'Close detail',
  onClose,
  children,
}: {
  /** What the panel shows ("DLQ entry"), above the id; without it the id stands alone. */
  kind?: string;
  id: string;
  /** Beside the id: the record's state. */
  badge?: ReactNode;
  closeLabel?: string;
  /** Where the close button goes instead of back to the list screen (a run's own page). */
  onClose?: () => void;
  /** The actions, before the close button. */
  children?: ReactNode;
}) {
  const screen = useScreenRoute();
  return (
    <div className="detail-panel-header">
      {/* The panel's heading (level two, under the page's title), so a screen reader's heading keys find
          the panel; it keeps the look of the label and the id it is made of. */}
      <h2 className={kind ? 'detail-panel-title stack' : 'detail-panel-title'}>
        {kind ? <span className="section-title">{kind}</span> : null}
        <span className="mono detail-panel-id">{id}</span>
      </h2>
      {badge}
      <span className="spacer" />
      {children}
      <Button
        size="sm"
        variant="ghost"
        icon={<XIcon />}
        aria-label={closeLabel}
        onClick={onClose ?? screen.close}
      />
    </div>
  );
}
