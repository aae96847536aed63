// An applied filter as a pill with a × to remove it (the run list's filters, the logs' run filter).
import { XIcon } from './icons';
import './chip.css';

export function RemovableChip({ text, onRemove }: { text: string; onRemove: () => void }) {
  return (
    <span className="chip">
      {text}
      <button type="button" className="chip-remove" aria-label={`Remove filter ${text}`} onClick={onRemove}>
        <XIcon width={12} height={12} />
      </button>
    </span>
  );
}
