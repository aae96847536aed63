// The header of a detail panel beside a list (a message's trail, a DLQ entry, a workflow run): what it
// shows and its id, the panel's actions, and the close button at the far end.
import type { ReactNode } from 'react';
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
  onClose: () => void;
  /** The actions, before the close button. */
  children?: ReactNode;
}) {
  const idLine = <span className="mono detail-panel-id">{id}</span>;
  return (
    <div className="detail-panel-header">
      {kind ? (
        <div className="stack" style={{ gap: 2, minWidth: 0 }}>
          <span className="section-title">{kind}</span>
          {idLine}
        </div>
      ) : (
        idLine
      )}
      {badge}
      <span className="spacer" />
      {children}
      <Button size="sm" variant="ghost" icon={<XIcon />} aria-label={closeLabel} onClick={onClose} />
    </div>
  );
}
