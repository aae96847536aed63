// Asking main to put token-bearing text (a webhook URL, a curl command, the Local profile as .env) on the
// clipboard or into a new file the user names. The renderer never holds the text: it only picks where it
// goes and shows the masked version main sends back. Without an OS clipboard (the browser host on a
// headless server) the file is the only way, and the screen says so.
import { type ReactNode, useState } from 'react';
import type { CopyResult, SecretTarget } from '../../../shared/bridge/procedures/app';
import { useBridgeQuery } from '../bridge/react';
import { Button } from './Button';
import { Segmented, TextField } from './fields';
import { LockIcon } from './icons';
import { Callout } from './misc';

export interface SecretDeliveryProps {
  /** The button's text when copying, e.g. "Copy URL"; writing to a file reads "Write file". */
  label: string;
  /** What is handed over, for the messages: "the URL", "the .env file". */
  what: string;
  /** Where the file goes unless the user names another, e.g. "~/switchyard-intake-url.txt". */
  defaultPath: string;
  icon?: ReactNode;
  disabled?: boolean;
  busy?: boolean;
  onSend: (to: SecretTarget) => void;
  /** Main's answer to the last send (masked), null after any change. */
  result?: CopyResult | null;
  error?: string | null;
}

export function SecretDelivery(props: SecretDeliveryProps) {
  const { label, what, defaultPath, icon, disabled, busy, onSend, result, error } = props;
  const clipboard = useBridgeQuery('app.clipboardStatus', {}, { staleTime: 60_000 });
  const [chosen, setChosen] = useState<'clipboard' | 'file' | null>(null);
  const [path, setPath] = useState(defaultPath);
  const noClipboard = clipboard.data?.available === false;
  // Without a clipboard, a file is the only way; otherwise the clipboard unless the user picks a file.
  const kind = noClipboard ? 'file' : (chosen ?? 'clipboard');
  const target: SecretTarget = kind === 'file' ? { kind, path } : { kind };

  return (
    <div className="stack secret-delivery" style={{ gap: 8 }}>
      {noClipboard ? null : (
        <Segmented
          label="Put it on"
          value={kind}
          onChange={setChosen}
          options={{ clipboard: 'Clipboard', file: 'File' }}
        />
      )}
      {kind === 'file' ? (
        <TextField
          label="File to write"
          mono
          value={path}
          onChange={(event) => setPath(event.target.value)}
          hint="A full path (/… or ~/…). A new file, readable by you only; an existing file is never overwritten."
        />
      ) : null}
      <div className="row row-wrap">
        <Button
          variant="primary"
          icon={icon}
          disabled={disabled || (kind === 'file' && path.trim() === '')}
          busy={busy}
          onClick={() => onSend(target)}
        >
          {kind === 'file' ? 'Write file' : label}
        </Button>
        <span className="faint row" data-testid="secret-delivery-method">
          <LockIcon width={14} height={14} />
          {kind === 'file'
            ? `The back end writes ${what}, token included, to this file; this page never sees the token.`
            : `The back end puts ${what}, token included, on the clipboard${clipboard.data?.method ? ` (${clipboard.data.method})` : ''}; this page never sees the token.`}
        </span>
      </div>
      {noClipboard ? (
        <Callout tone="info" title="The back end writes a file instead of copying.">
          {clipboard.data?.problem}
        </Callout>
      ) : null}
      {error ? (
        <Callout tone="danger" title={kind === 'file' ? 'Not written.' : 'Not copied.'}>
          {error}
        </Callout>
      ) : null}
      {result ? (
        <Callout
          tone="success"
          title={
            result.to === 'file' ? `Written to ${result.path ?? 'the file'}.` : 'Copied to the clipboard.'
          }
        >
          {result.to === 'file'
            ? `The file holds ${what} with the real token and is readable by you only. Treat it as a secret.`
            : `${capitalise(what)} (token included) is on the clipboard.`}
        </Callout>
      ) : null}
    </div>
  );
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
