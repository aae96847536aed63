// Asking main to put token-bearing text (a webhook URL, a curl command, the Local profile as .env) on the
// clipboard or into a new file. The renderer never holds the text and never names where a file goes: in
// the desktop app main opens a save dialog, in the browser host it writes into its private exports folder
// (the page may suggest a file name). The screen shows where main put it. Without an OS clipboard (the
// browser host on a headless server) the file is the only way, and the screen says so.
import { type ReactNode, useState } from 'react';
import type { CopyResult, SecretTarget } from '../../../shared/bridge/procedures/app';
import { fileNameProblem } from '../../../shared/bridge/procedures/app';
import { useBridgeQuery } from '../bridge/react';
import { Button } from './Button';
import { Segmented, TextField } from './fields';
import { DownloadIcon, LockIcon } from './icons';
import { Callout } from './misc';

export interface SecretDeliveryProps {
  /** The button's text when copying, e.g. "Copy URL". */
  label: string;
  /** What is handed over, for the messages: "the URL", "the .env file". */
  what: string;
  /** The file name main uses unless the user suggests another, e.g. "switchyard-intake-url.txt". */
  fileName: string;
  icon?: ReactNode;
  disabled?: boolean;
  busy?: boolean;
  onSend: (to: SecretTarget) => void;
  /** Main's answer to the last send (masked), null after any change. */
  result?: CopyResult | null;
  error?: string | null;
}

export function SecretDelivery(props: SecretDeliveryProps) {
  const { label, what, fileName, icon, disabled, busy, onSend, result, error } = props;
  const clipboard = useBridgeQuery('app.clipboardStatus', {}, { staleTime: 60_000 });
  const saving = useBridgeQuery('app.info', {}, { staleTime: Infinity }).data?.fileSaving;
  const [chosen, setChosen] = useState<'clipboard' | 'file' | null>(null);
  const [name, setName] = useState(fileName);
  const noClipboard = clipboard.data?.available === false;
  // Without a clipboard, a file is the only way; otherwise the clipboard unless the user picks a file.
  const kind = noClipboard ? 'file' : (chosen ?? 'clipboard');
  const dialog = saving?.kind === 'dialog';
  // In the desktop app the user names the file in the save dialog; the browser host takes a suggestion.
  const nameProblem = kind === 'file' && !dialog ? fileNameProblem(name.trim()) : undefined;
  const target: SecretTarget =
    kind === 'clipboard'
      ? { kind }
      : dialog
        ? { kind: 'file' }
        : { kind: 'file', suggestedName: name.trim() };

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
      {kind === 'file' && saving?.kind === 'folder' ? (
        <TextField
          label="File name"
          mono
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={nameProblem ? `${capitalise(nameProblem)}.` : undefined}
          hint={
            <>
              Written to <code data-testid="exports-folder">{saving.folder}</code>, a folder readable by you
              only. A name that is taken gets a number; no file is ever replaced.
            </>
          }
        />
      ) : null}
      <div className="row row-wrap">
        <Button
          variant="primary"
          icon={kind === 'clipboard' ? icon : <DownloadIcon />}
          disabled={disabled || (kind === 'file' && (!saving || nameProblem !== undefined))}
          busy={busy}
          onClick={() => onSend(target)}
        >
          {kind === 'clipboard' ? label : dialog ? 'Save as…' : 'Write file'}
        </Button>
        <span className="faint row" data-testid="secret-delivery-method">
          <LockIcon width={14} height={14} style={{ flexShrink: 0 }} />
          {kind === 'clipboard'
            ? `The back end puts ${what}, token included, on the clipboard${clipboard.data?.method ? ` (${clipboard.data.method})` : ''}; this page never sees the token.`
            : dialog
              ? `You choose the file in a save dialog; the back end writes ${what}, token included. This page never sees the token.`
              : `The back end writes ${what}, token included, to a new file in its exports folder; this page never sees the token.`}
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
      {result ? <Delivered result={result} what={what} /> : null}
    </div>
  );
}

function Delivered({ result, what }: { result: CopyResult; what: string }) {
  if (result.to === 'clipboard') {
    return (
      <Callout tone="success" title="Copied to the clipboard.">
        {capitalise(what)} (token included) is on the clipboard.
      </Callout>
    );
  }
  if ('canceled' in result) {
    return (
      <Callout tone="info" title="Not saved.">
        The save dialog was closed without choosing a file.
      </Callout>
    );
  }
  return (
    <Callout tone="success" title="Written to this file:">
      <span className="stack" style={{ gap: 4 }}>
        <code className="secret-delivery-path" data-testid="written-path">
          {result.path}
        </code>
        <span>
          The file holds {what} with the real token and is readable by you only. Treat it as a secret.
        </span>
      </span>
    </Callout>
  );
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
