// The live preview of the exact request main will send (same pure builder as main's), with the token
// masked, plus copy as curl and as @upstash/qstash TypeScript. The renderer copies only token-free text;
// "with token" asks main, which writes to the OS clipboard itself (or, without one, a file main places).
import { useState } from 'react';
import type { ComposerModel } from '../../../../../shared/composer/model';
import { toCurl } from '../../../../../shared/composer/curl';
import type { BuiltRequest } from '../../../../../shared/composer/request';
import { toQstashTypeScript } from '../../../../../shared/composer/typescript';
import type { ProfileView } from '../../../../../shared/profiles';
import { errorMessage } from '../../../bridge/client';
import { useBridgeMutation, useBridgeQuery } from '../../../bridge/react';
import { Button } from '../../../ui/Button';
import { CopyButton } from '../../../ui/CopyButton';
import { Segmented } from '../../../ui/fields';
import { LockIcon } from '../../../ui/icons';
import { toast } from '../../../ui/toast';

export type PreviewTarget =
  { kind: 'single'; model: ComposerModel } | { kind: 'batch'; items: ComposerModel[] };

export function RequestPreview({
  request,
  problems,
  problemList = [],
  profile,
  target,
}: {
  /** null while the form has errors. */
  request: BuiltRequest | null;
  problems: number;
  /** The first problems, `[where, what]`, listed where the preview would be. */
  problemList?: [string, string][];
  /** Where it goes and with which token (shown only by its hint). */
  profile: ProfileView;
  target: PreviewTarget;
}) {
  const { messagesUrl: baseUrl, id: profileId } = profile;
  const tokenHint = profile.secrets.messageToken.hint;
  const [view, setView] = useState<'http' | 'curl' | 'ts'>('http');
  const clipboard = useBridgeQuery('app.clipboardStatus', {}, { staleTime: Infinity });
  // Without an OS clipboard (the browser host on a headless server) main writes the command to a new file
  // in the place it picks, and the toast says where.
  const toFile = clipboard.data?.available === false;
  const copyWithToken = useBridgeMutation('messages.composer.copyCurl', {
    onSuccess: (result) => {
      if (result.to === 'clipboard')
        toast.success('Copied with the token', 'The command is on the clipboard; it was never shown here.');
      else if ('path' in result)
        toast.success(
          'Written with the token',
          `${result.path} — readable by you only; treat it as a secret.`,
        );
    },
    onError: (error) =>
      toast.error(toFile ? 'Could not write the file' : 'Could not copy', errorMessage(error)),
  });
  const url = request ? `${baseUrl.replace(/\/+$/, '')}${request.path}` : '';
  const masked = tokenHint ?? '(no token set in this profile)';
  const curl = request ? toCurl(request, url, { kind: 'env', variable: 'QSTASH_TOKEN' }) : '';
  const ts = target.kind === 'single' ? toQstashTypeScript(target.model, baseUrl) : '';

  return (
    <section className="card preview" aria-label="Request preview">
      <div className="card-header">
        <h2>Request</h2>
        <span className="spacer" />
        <Segmented
          label="Preview as"
          value={view}
          options={[
            { value: 'http', label: 'HTTP' },
            { value: 'curl', label: 'curl' },
            ...(target.kind === 'single' ? [{ value: 'ts' as const, label: 'TypeScript' }] : []),
          ]}
          onChange={setView}
        />
      </div>
      <div className="card-body stack">
        {!request ? (
          <div className="stack preview-problems" style={{ gap: 6 }}>
            <p className="muted">
              {problems} problem{problems === 1 ? '' : 's'} to fix: the preview appears when the message is
              valid.
            </p>
            {problemList.length > 0 ? (
              <ul>
                {problemList.slice(0, 6).map(([where, what]) => (
                  <li key={where}>
                    <strong>{where}:</strong> {what}
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
        ) : view === 'http' ? (
          <pre className="code-block preview-http" data-testid="preview-http">
            <span className="preview-start">
              {request.method} {url}
            </span>
            {'\n'}
            <span className="preview-header">
              Authorization: Bearer <span title="Held by the back end only">{masked}</span>
            </span>
            {request.headers.map(([name, value], index) => (
              <span key={index} className="preview-header">
                {'\n'}
                {name}: {value}
              </span>
            ))}
            {request.body !== '' ? `\n\n${previewBody(request.body)}` : ''}
          </pre>
        ) : view === 'curl' ? (
          <pre className="code-block" data-testid="preview-curl">
            {curl}
          </pre>
        ) : (
          <pre className="code-block" data-testid="preview-ts">
            {ts}
          </pre>
        )}
        <div className="row row-wrap">
          <CopyButton size="sm" text={curl} label="Copy curl ($QSTASH_TOKEN)" disabled={!request} />
          <Button
            size="sm"
            icon={<LockIcon />}
            disabled={!request}
            busy={copyWithToken.isPending}
            title={
              toFile
                ? 'The back end writes the command with the real token to a new file, readable by you only'
                : 'The back end puts the command with the real token on the clipboard'
            }
            onClick={() => {
              const to = toFile ? ({ kind: 'file' } as const) : ({ kind: 'clipboard' } as const);
              copyWithToken.mutate(
                target.kind === 'single'
                  ? { profileId, model: target.model, to }
                  : { profileId, items: target.items, to },
              );
            }}
          >
            {toFile ? 'Write curl with token to a file' : 'Copy curl with token'}
          </Button>
          {target.kind === 'single' ? (
            <CopyButton size="sm" text={ts} label="Copy TypeScript" disabled={!request} />
          ) : null}
        </div>
        {toFile ? (
          <p className="field-hint">
            {clipboard.data?.problem} The command with the token goes to a file instead.
          </p>
        ) : null}
      </div>
    </section>
  );
}

/** Bodies up to this many characters are shown whole; the rest is summarised (laying out a megabyte of text
 * in a <pre> on every keystroke is what made large bodies slow). */
const PREVIEW_BODY_CHARS = 64 * 1024;

function previewBody(body: string): string {
  if (body.length <= PREVIEW_BODY_CHARS) return body;
  const rest = body.length - PREVIEW_BODY_CHARS;
  return `${body.slice(0, PREVIEW_BODY_CHARS)}\n… ${rest.toLocaleString('en-US')} more characters (sent in full)`;
}
