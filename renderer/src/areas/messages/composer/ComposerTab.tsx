// The message composer: the form on the left, the live request preview and the send result on the right.
// Routes: #/messages/compose, and prefills other screens link to: …/compose/url/<encoded URL>,
// …/compose/group/<name>, …/compose/queue/<name>.
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { PublishOutcome } from '../../../../../shared/bridge/procedures/messages/publish';
import type { ProfileView } from '../../../../../shared/profiles';
import { BridgeError } from '../../../../../shared/bridge/errors';
import { type ComposerModel, describeDestination, emptyComposer } from '../../../../../shared/composer/model';
import { validateComposer } from '../../../../../shared/composer/validate';
import { errorMessage } from '../../../bridge/client';
import { useBridge, useBridgeMutation } from '../../../bridge/react';
import { ActiveService } from '../../../shell/ActiveService';
import { useNav } from '../../../shell/nav';
import { Button } from '../../../ui/Button';
import { Form } from '../../../ui/Form';
import { Callout, EnvBadge, Kbd, Spinner } from '../../../ui/misc';
import { DownloadIcon, SendIcon } from '../../../ui/icons';
import { AccessHelp } from '../../../ui/service-access';
import { toast } from '../../../ui/toast';
import { ComposerForm } from './ComposerForm';
import { ImportCurlDialog } from './ImportCurlDialog';
import { LibraryDialog } from './LibraryDialog';
import { RequestPreview } from './RequestPreview';
import { SentMessages } from './SendResult';
import { type DraftSaveState, storeDraft, useDraft } from './use-draft';
import { buildOrNull, fieldLabel, prefilledModel } from './prefill';
import { useNow } from '../../../ui/use-now';
import './composer.css';
import { formatTimeOfDay } from '../../../ui/format';

const newMessage = () => emptyComposer();

export default function ComposerTab({ params }: { params: string[] }) {
  return (
    <ActiveService gate="profile">
      {(profile) => <Composer profile={profile} params={params} />}
    </ActiveService>
  );
}

function Composer({ profile, params }: { profile: ProfileView; params: string[] }) {
  const bridge = useBridge();
  const queryClient = useQueryClient();
  const navigate = useNav((state) => state.navigate);
  const draft = useDraft(profile.id, 'compose', newMessage);
  const { value: model, update, loaded, flush: flushDraft } = draft;
  const now = useNow();
  const [showAll, setShowAll] = useState(false);
  const [result, setResult] = useState<{ outcome: PublishOutcome } | { error: BridgeError | Error } | null>(
    null,
  );
  const [dialog, setDialog] = useState<'import' | 'history' | 'templates' | null>(null);
  /** What the last import or prefill did to the form, shown until the next one. */
  const [notes, setNotes] = useState<{ title: string; lines: string[] } | null>(null);
  const setModel = useCallback((next: ComposerModel) => update(() => next), [update]);

  // A prefill route ("Publish to this group") starts a clean message to that destination, once, and says so: the previous draft's settings were meant for another destination.
  const prefillKey = params.join('/');
  const applied = useRef<string | null>(null);
  useEffect(() => {
    if (!loaded || applied.current === prefillKey) return;
    applied.current = prefillKey;
    const prefilled = prefilledModel(params);
    if (!prefilled) return;
    update(() => prefilled);
    // The address becomes plain compose again, so a reload keeps what the user typed since.
    useNav.getState().replace('messages', 'compose');
    // Once per prefill link (the route is external state), like the model update above.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setNotes({
      title: 'New message.',
      lines: [`To ${describeDestination(prefilled)}; nothing of the previous draft was carried over`],
    });
  }, [loaded, prefillKey, params, update]);

  const validation = validateComposer(model, now);
  const problems = Object.keys(validation.errors).length;
  const request = problems === 0 ? buildOrNull(model, now) : null;

  const send = useBridgeMutation('messages.publish', {
    onSuccess: (outcome) => setResult({ outcome }),
    onError: (error) => setResult({ error }),
  });
  const trySend = () => {
    setShowAll(true);
    flushDraft();
    if (problems > 0 || send.isPending) return;
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

  if (!loaded) {
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
            setNotes(null);
          }}
        >
          New message
        </Button>
        <span className="spacer" />
        <DraftStatus save={draft.save} />
        <EnvBadge env={profile.env} />
        <span className="mono faint">{profile.name}</span>
      </div>
      {notes && notes.lines.length > 0 ? (
        <Callout tone="info" title={notes.title}>
          {notes.lines.join('; ')}.
        </Callout>
      ) : null}
      <div className="compose-layout">
        <Form aria-label="Message" onSubmit={() => trySend()}>
          <ComposerForm
            model={model}
            onChange={setModel}
            validation={validation}
            showAll={showAll}
            profileId={profile.id}
          />
        </Form>
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
              {result ? <ResultPanel profileId={profile.id} result={result} /> : null}
            </div>
          </div>
          <RequestPreview
            request={request}
            problems={problems}
            problemList={Object.entries(validation.errors).map(([field, message]) => [
              fieldLabel(field),
              message,
            ])}
            profile={profile}
            target={{ kind: 'single', model }}
          />
        </aside>
      </div>
      <ImportCurlDialog
        open={dialog === 'import'}
        onClose={() => setDialog(null)}
        onImport={(imported) => {
          setModel(imported.model);
          setNotes({ title: 'Imported.', lines: imported.notes });
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
            void storeDraft(queryClient, bridge, profile.id, 'batch', items).then(
              () => navigate('messages', 'batch'),
              (error: unknown) => toast.error('Could not open the batch', errorMessage(error)),
            );
          }}
        />
      ) : null}
    </div>
  );
}

function ResultPanel({
  profileId,
  result,
}: {
  profileId: string;
  result: { outcome: PublishOutcome } | { error: BridgeError | Error };
}) {
  if ('error' in result) {
    const error = result.error;
    const status = error instanceof BridgeError && error.status ? `HTTP ${error.status}: ` : '';
    return (
      <div data-testid="send-result">
        <Callout tone="danger" title="Not sent.">
          {status}
          {readableError(error)}
          <AccessHelp error={error} />
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
            : `HTTP ${outcome.status} at ${formatTimeOfDay(outcome.sentAt)}.`}
      </Callout>
      <SentMessages profileId={profileId} messages={outcome.messages} fanOut={outcome.fanOut} />
    </div>
  );
}

/** Whether the draft on screen is stored: a failed save is said, with its reason, never hidden. */
function DraftStatus({ save }: { save: DraftSaveState }) {
  if (save.state === 'failed') {
    return (
      <span className="field-error" role="alert" data-testid="draft-status">
        Draft not saved: {save.reason} ·{' '}
      </span>
    );
  }
  return (
    <span className="faint" data-testid="draft-status">
      {save.state === 'pending' ? 'Saving draft… · ' : 'Draft saved on this computer · '}
    </span>
  );
}

/**
 * A refused input in words: "Body: at most 1,048,576 characters" rather than the schema's path
 * (`model.body`). Other errors carry the service's own text.
 */
export function readableError(error: BridgeError | Error): string {
  if (error instanceof BridgeError && error.code === 'INVALID_INPUT' && error.fields) {
    return Object.entries(error.fields)
      .map(([path, message]) => `${fieldLabel(path.replace(/^(model|items\.\d+)\./, ''))}: ${message}`)
      .join('; ');
  }
  return errorMessage(error);
}
