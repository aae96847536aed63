// A body of the workflow logs (step output, call request/response, error bodies): pretty (JSON
// indented), raw (as stored), or base64-decoded (the service keeps some bodies base64). A body cut at the
// trim size offers to load the full one.
import { useState } from 'react';
import { Button } from '../../../ui/Button';
import { BodyText, BodyView } from '../../../ui/BodyView';
import { Segmented } from '../../../ui/fields';

type Mode = 'pretty' | 'raw' | 'base64';

function looksBase64(value: string): boolean {
  return value.length >= 4 && value.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(value);
}

/** How the run's bodies were fetched, and the way to fetch them in full. */
export interface BodyTrim {
  /** The trim size the run was fetched with (undefined: in full); a body this long may be cut. */
  trimmedAt?: number;
  loadingFull: boolean;
  onLoadFull: () => void;
}

export function WfBody({ value, label, trim }: { value?: string; label: string; trim: BodyTrim }) {
  const { trimmedAt, onLoadFull, loadingFull } = trim;
  const [mode, setMode] = useState<Mode>(() =>
    value && looksBase64(value) && !/^\d+$/.test(value) ? 'base64' : 'pretty',
  );
  if (value === undefined || value === '') return <p className="faint">Empty</p>;
  const bytes = new TextEncoder().encode(value).length;
  const maybeTrimmed = trimmedAt !== undefined && bytes >= trimmedAt;
  return (
    <div className="wf-body">
      <div className="wf-body-bar">
        <Segmented
          label={`${label} view`}
          value={mode}
          onChange={setMode}
          options={{ pretty: 'Pretty', raw: 'Raw', base64: 'Base64-decoded' }}
        />
        {maybeTrimmed && onLoadFull ? (
          <Button size="sm" busy={loadingFull} onClick={onLoadFull}>
            Trimmed at {trimmedAt.toLocaleString()} bytes — load the full body
          </Button>
        ) : null}
      </div>
      {mode === 'raw' ? (
        <BodyText label={label}>{value}</BodyText>
      ) : (
        <BodyView value={value} base64={mode === 'base64'} label={label} />
      )}
    </div>
  );
}
