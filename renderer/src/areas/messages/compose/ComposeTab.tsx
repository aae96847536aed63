// The message composer: the form on the left, the live request preview and the send result on the right.
// Routes: #/messages/compose, and prefills other screens link to: …/compose/url/<encoded URL>,
// …/compose/group/<name>, …/compose/queue/<name>.
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { PublishOutcome } from '../../../../../shared/bridge/procedures/messages/publish';
import { BridgeError } from '../../../../../shared/bridge/errors';
import { type ComposerModel, emptyComposer } from '../../../../../shared/composer/model';
import { validateComposer } from '../../../../../shared/composer/validate';
import { errorMessage } from '../../../bridge/client';
import { useBridge, useBridgeMutation } from '../../../bridge/react';
import { useActiveProfile } from '../../../shell/data';
import { useNav } from '../../../shell/nav';
import { Button } from '../../../ui/Button';
import { Callout, EnvBadge, Kbd, Spinner } from '../../../ui/misc';
import { DownloadIcon, SendIcon } from '../../../ui/icons';
import { toast } from '../../../ui/toast';
import { ComposerForm } from './ComposerForm';
import { ImportCurlDialog } from './ImportCurlDialog';
import { LibraryDialog } from './LibraryDialog';
import { RequestPreview } from './RequestPreview';
import { SentMessages } from './SendResult';
import { storeDraft, useDraft } from './use-draft';
import { applyPrefill, buildOrNull, fieldLabel } from './prefill';
import { useNow } from './use-now';
import './composer.css';

const newMessage = () => emptyComposer();

export default function ComposeTab({ params }: { params: string[] }) {
  const profile = useActiveProfile();
  const bridge = useBridge();
  const queryClient = useQueryClient();
  const navigate = useNav((state) => state.navigate);
  const [model, update, loaded, flushDraft] = useDraft('compose', newMessage);
  const now = useNow();
  const [showAll, setShowAll] = useState(false);
  const [result, setResult] = useState<{ outcome: PublishOutcome } | { error: BridgeError | Error } | null>(
    null,
  );
  const [dialog, setDialog] = useState<'import' | 'history' | 'templates' | null>(null);
  const [notes, setNotes] = useState<string[]>([]);
  const setModel = useCallback((next: ComposerModel) => update(() => next), [update]);

  // A prefill route sets the destination once per route, keeping the rest of the draft.
  const prefillKey = params.join('/');
  const applied = useRef<string | null>(null);
  useEffect(() => {
    if (!loaded || applied.current === prefillKey) return;
    applied.current = prefillKey;
    if (params.length >= 2) update((current) => applyPrefill(current, params));
  }, [loaded, prefillKey, params, update]);

  const validation = validateComposer(model, now);
  const problems = Object.keys(validation.errors).length;
  const request = problems === 0 ? buildOrNull(model, now) : null;

  const send = useBridgeMutation('messages.publish', {
    invalidates: ['messages.composer.history', 'messages.destinations'],
    onSuccess: (outcome) => setResult({ outcome }),
    onError: (error) => setResult({ error }),
  });
  const trySend = () => {
    setShowAll(true);
    flushDraft();
    if (!profile || problems > 0 || send.isPending) return;
    setResult(null);
    send.mutate({ profileId: profile.id, model });
  };

  // Ctrl/⌘+Enter sends from anywhere in the tab.
  const sendRef = useRef(trySend);
  useEffect(() => {
    sendRef.current = trySend;
  });
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      // Not while a dialog (import, library, confirm) has the user's attention.
      if (document.querySelector('dialog[open]')) return;
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        sendRef.current();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  if (!profile || !loaded) {
    return (
      <div className="page-body">
        <Spinner />
      </div>
    );
  }
  const readOnly = profile.readOnly;

  return (
    <div className="page-body">
      <div className="compose-toolbar row row-wrap">
        <Button size="sm" icon={<DownloadIcon />} onClick={() => setDialog('import')}>
          Import curl
        </Button>
        <Button size="sm" onClick={() => setDialog('templates')}>
          Templates
        </Button>
        <Button size="sm" onClick={() => setDialog('history')}>
          Sent
        </Button>
        <Button
          size="sm"
          variant="ghost"
          onClick={() => {
            setModel(emptyComposer());
            setShowAll(false);
            setResult(null);
            setNotes([]);
          }}
        >
          New message
        </Button>
        <span className="spacer" />
        <span className="faint">Draft saved on this computer · </span>
        <EnvBadge env={profile.env} />
        <span className="mono faint">{profile.name}</span>
      </div>
      {notes.length > 0 ? (
        <Callout tone="info" title="Imported.">
          {notes.join('; ')}.
        </Callout>
      ) : null}
      <div className="compose-layout">
        <form
          aria-label="Message"
          onSubmit={(event) => {
            event.preventDefault();
            trySend();
          }}
        >
          <ComposerForm
            model={model}
            onChange={setModel}
            validation={validation}
            showAll={showAll}
            profileId={profile.id}
          />
        </form>
        <aside className="compose-side">
          <div className="card send-card">
            <div className="card-body stack">
              {readOnly ? (
                <Callout tone="warning" title="Read-only profile.">
                  Sending is refused for {profile.name}; the back end enforces it.
                </Callout>
              ) : null}
              <div className="row">
                <Button
                  variant="primary"
                  icon={<SendIcon />}
                  busy={send.isPending}
                  disabled={readOnly}
                  onClick={trySend}
                >
                  {model.destinationKind === 'queue' ? 'Enqueue' : 'Send'}
                </Button>
                <span className="faint">
                  <Kbd>Ctrl</Kbd>+<Kbd>Enter</Kbd>
                </span>
                <span className="spacer" />
                {showAll && problems > 0 ? (
                  <span className="field-error" role="alert">
                    {problems} problem{problems === 1 ? '' : 's'} to fix
                  </span>
                ) : null}
              </div>
              {result ? <ResultPanel result={result} /> : null}
            </div>
          </div>
          <RequestPreview
            request={request}
            problems={problems}
            problemList={Object.entries(validation.errors).map(([field, message]) => [
              fieldLabel(field),
              message,
            ])}
            baseUrl={profile.messagesUrl}
            tokenHint={profile.secrets.messageToken.hint}
            profileId={profile.id}
            target={{ kind: 'single', model }}
          />
        </aside>
      </div>
      <ImportCurlDialog
        open={dialog === 'import'}
        onClose={() => setDialog(null)}
        onImport={(imported) => {
          setModel(imported.model);
          setNotes(imported.notes);
          setResult(null);
          toast.success('curl command imported');
        }}
      />
      {dialog === 'history' || dialog === 'templates' ? (
        <LibraryDialog
          open
          initialView={dialog}
          onClose={() => setDialog(null)}
          profileId={profile.id}
          current={model}
          onOpenModel={(next) => {
            setModel(next);
            setResult(null);
          }}
          onOpenBatch={(items) => {
            void storeDraft(queryClient, bridge, 'batch', items).then(
              () => navigate('messages', 'batch'),
              (error: unknown) => toast.error('Could not open the batch', errorMessage(error)),
            );
          }}
        />
      ) : null}
    </div>
  );
}

function ResultPanel({ result }: { result: { outcome: PublishOutcome } | { error: BridgeError | Error } }) {
  if ('error' in result) {
    const error = result.error;
    const status = error instanceof BridgeError && error.status ? `HTTP ${error.status}: ` : '';
    return (
      <div data-testid="send-result">
        <Callout tone="danger" title="Not sent.">
          {status}
          {errorMessage(error)}
        </Callout>
      </div>
    );
  }
  const { outcome } = result;
  const count = outcome.messages.length;
  const duplicate = outcome.messages.every((message) => message.deduplicated);
  return (
    <div className="stack" data-testid="send-result">
      <Callout tone={duplicate ? 'warning' : 'success'} title={duplicate ? 'Duplicate.' : 'Accepted.'}>
        {duplicate
          ? 'The service already had this message within the deduplication window (HTTP 202); nothing new is delivered.'
          : outcome.fanOut
            ? `${count} message${count === 1 ? '' : 's'}, one per endpoint of the group.`
            : `HTTP ${outcome.status} at ${new Date(outcome.sentAt).toLocaleTimeString()}.`}
      </Callout>
      <SentMessages messages={outcome.messages} fanOut={outcome.fanOut} />
    </div>
  );
}
