// Webhook intake: an address third parties (GitHub, Stripe, …) can call without a token of their own:
// `…/v2/publish/<destination>?qstash_token=…&upstash-…=…`, built from the same options as the composer.
// The renderer never holds the token: the screen shows it masked, and "Copy URL" asks main, which writes
// the full URL to the OS clipboard, or — without one (the browser host on a headless server) — to a new
// file the user names.
import { useCallback, useState } from 'react';
import type { CopyResult } from '../../../../../shared/bridge/procedures/app';
import { type ComposerModel, emptyComposer } from '../../../../../shared/composer/model';
import { webhookQuery, webhookUrl } from '../../../../../shared/composer/request';
import { validateComposer } from '../../../../../shared/composer/validate';
import type { ProfileView } from '../../../../../shared/profiles';
import { errorMessage } from '../../../bridge/client';
import { useBridgeMutation } from '../../../bridge/react';
import { ActiveService } from '../../../shell/ActiveService';
import { CopyIcon } from '../../../ui/icons';
import { SecretDelivery } from '../../../ui/SecretDelivery';
import { Callout, Spinner } from '../../../ui/misc';
import { TableHead } from '../../../ui/TableHead';
import { ComposerForm } from '../composer/ComposerForm';
import { useDraft } from '../composer/use-draft';
import { useNow } from '../../../ui/use-now';
import '../composer/composer.css';

const PLACEHOLDER = 'SWITCHYARD_MASKED_TOKEN';
const firstWebhook = () => emptyComposer({ headerForward: true, contentType: '' });

export default function WebhookTab(_props: { params: string[] }) {
  return <ActiveService gate="profile">{(profile) => <Webhook profile={profile} />}</ActiveService>;
}

function Webhook({ profile }: { profile: ProfileView }) {
  const draft = useDraft(profile.id, 'webhook', firstWebhook);
  const { value: model, update, loaded } = draft;
  const setModel = useCallback((next: ComposerModel) => update(() => next), [update]);
  const [copied, setCopied] = useState<CopyResult | null>(null);
  const now = useNow();
  const copy = useBridgeMutation('messages.composer.copyWebhookUrl', {
    onSuccess: (result) => setCopied(result),
    onError: () => setCopied(null),
  });

  if (!loaded) {
    return (
      <div className="page-body">
        <Spinner />
      </div>
    );
  }
  // The webhook's sender provides body and Content-Type; they are not part of the address.
  const validation = validateComposer({ ...model, body: '', contentType: '' }, now);
  const problems = Object.keys(validation.errors).length;
  const hint = profile.secrets.messageToken.hint;
  const shown =
    problems === 0 && profile.messagesUrl
      ? webhookUrl(model, profile.messagesUrl, PLACEHOLDER).replace(PLACEHOLDER, hint ?? '(no token)')
      : null;
  const params = problems === 0 ? webhookQuery(model) : [];

  return (
    <div className="page-body">
      <div className="compose-layout">
        <ComposerForm
          model={model}
          onChange={(next) => {
            setModel(next);
            setCopied(null);
          }}
          validation={validation}
          showAll={false}
          profileId={profile.id}
          variant="webhook"
        />
        <aside className="compose-side">
          <section className="card" aria-label="Intake URL">
            <div className="card-header">
              <h2>Intake URL</h2>
            </div>
            <div className="card-body stack">
              <p className="muted">
                Paste it as the webhook address at the sender. Each call becomes a message to your destination
                with the options on the left; the sender needs no token, because the URL carries it. Treat the
                URL as a secret.
              </p>
              {shown ? (
                <pre className="code-block webhook-url" data-testid="webhook-url">
                  {shown}
                </pre>
              ) : (
                <p className="muted">
                  {problems} problem{problems === 1 ? '' : 's'} in the form: the URL appears when the options
                  are valid.
                </p>
              )}
              {!hint ? (
                <Callout tone="warning" title="No token.">
                  This profile has no message token; add one in Profiles.
                </Callout>
              ) : null}
              <SecretDelivery
                label="Copy URL"
                what="the URL"
                fileName="switchyard-intake-url.txt"
                icon={<CopyIcon />}
                disabled={!shown || !hint}
                busy={copy.isPending}
                onSend={(to) => copy.mutate({ profileId: profile.id, model, to })}
                result={copied}
                error={copy.isError ? errorMessage(copy.error) : null}
              />
              {params.length > 0 ? (
                <table className="table">
                  <TableHead columns={['Query parameter', 'Value']} />
                  <tbody>
                    {params.map(([name, value], index) => (
                      <tr key={index}>
                        <td className="mono">{name}</td>
                        <td className="mono">{value}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              ) : null}
              {profile.env === 'local' ? (
                <p className="field-hint">
                  This profile is the local stack on 127.0.0.1: only programs on this computer can call the
                  URL.
                </p>
              ) : null}
            </div>
          </section>
        </aside>
      </div>
    </div>
  );
}
