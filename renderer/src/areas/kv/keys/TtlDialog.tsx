// The TTL dialog of the key browser, one for a key (KeyDetail) and for a hash field (ValueView): seconds from
// now, or "Remove expiry" (PERSIST / HPERSIST). Saving runs the caller's request; its error stays in the form.
import { useState } from 'react';
import { KV_TTL_MAX_SECONDS } from '../../../../../shared/bridge/procedures/kv/key-browser';
import { type KvBytes, kvBytesLabel } from '../../../../../shared/kv/bytes';
import { Button } from '../../../ui/Button';
import { TextField } from '../../../ui/fields';
import { FormDialog } from '../../../ui/FormDialog';
import { useAsyncSave } from '../../../ui/use-async-save';
import { formatTtl, parseTtlSeconds } from './format-ttl';

export function TtlDialog({
  ttlMs,
  field,
  onClose,
  onSave,
}: {
  /** The TTL now (ms; -1 without one). */
  ttlMs: number;
  /** The hash field whose TTL this is; without one, the key's. */
  field?: KvBytes;
  onClose: () => void;
  onSave: (ttlSeconds: number | null) => Promise<void>;
}) {
  const [value, setValue] = useState(ttlMs > 0 ? String(Math.ceil(ttlMs / 1000)) : '');
  const { busy, error, run: save } = useAsyncSave(onSave);
  const seconds = parseTtlSeconds(value);
  const name = field === undefined ? undefined : kvBytesLabel(field);
  return (
    <FormDialog
      onClose={onClose}
      title={
        name ? (
          <>
            Time to live of{' '}
            <code className="kv-ttl-subject" title={name.text}>
              {name.binary ? `hex ${name.text}` : name.text}
            </code>
          </>
        ) : (
          'Time to live'
        )
      }
      secondary={
        <Button disabled={busy || ttlMs === -1} onClick={() => void save(null)}>
          Remove expiry
        </Button>
      }
      submitLabel="Set TTL"
      busy={busy}
      disabled={seconds === undefined}
      onSubmit={() => seconds !== undefined && void save(seconds)}
    >
      <TextField
        label="Seconds from now"
        type="number"
        min={1}
        max={KV_TTL_MAX_SECONDS}
        value={value}
        autoFocus
        error={
          error ??
          (value && seconds === undefined
            ? `a whole number of seconds, from 1 to ${KV_TTL_MAX_SECONDS} (about 68 years)`
            : undefined)
        }
        hint={
          field === undefined
            ? `Now: ${formatTtl(ttlMs)}`
            : `Now: ${formatTtl(ttlMs)}. A new value for the field (Edit) removes its TTL.`
        }
        onChange={(event) => setValue(event.target.value)}
      />
    </FormDialog>
  );
}
