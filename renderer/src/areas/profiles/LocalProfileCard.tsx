import { useState } from 'react';
import type { CopyResult } from '../../../../shared/bridge/procedures/app';
import { type ProfileView, SECRET_LABELS, SECRET_NAMES } from '../../../../shared/profiles';
import { errorMessage } from '../../bridge/client';
import { useBridgeMutation } from '../../bridge/react';
import { STACK_STATE_LABEL, useStackStatus } from '../../shell/data';
import { useNav } from '../../shell/nav';
import { Button } from '../../ui/Button';
import { CopyIcon } from '../../ui/icons';
import { Callout } from '../../ui/misc';
import { SecretDelivery } from '../../ui/SecretDelivery';

/** The built-in Local profile: everything comes from the local stack, nothing to type. */
export function LocalProfileCard({ profile }: { profile: ProfileView }) {
  const stack = useStackStatus();
  const navigate = useNav((state) => state.navigate);
  const [written, setWritten] = useState<CopyResult | null>(null);
  const copyEnv = useBridgeMutation('profiles.copyLocalEnv', {
    onSuccess: setWritten,
    onError: () => setWritten(null),
  });
  return (
    <section className="card">
      <div className="card-header">
        <h2>Built-in: the local stack</h2>
        <span className="spacer" />
        <Button size="sm" onClick={() => navigate('stack')}>
          Open local stack
        </Button>
      </div>
      <div className="card-body stack">
        <p className="muted">
          Local needs no typing: Switchyard runs the message, workflow and KV services on this machine and
          uses their URLs and tokens. Duplicate it to make an editable profile pointing at the same stack.
        </p>
        {stack && stack.state !== 'ready' ? (
          <Callout
            tone={stack.state === 'starting' ? 'info' : 'warning'}
            title={`Local stack: ${STACK_STATE_LABEL[stack.state]}.`}
          >
            {stack.message}
          </Callout>
        ) : null}
        <dl className="kv-list">
          <dt>Message API</dt>
          <dd className="mono">{profile.messagesUrl || '—'}</dd>
          <dt>KV REST</dt>
          <dd className="mono">{profile.kvUrl || '—'}</dd>
          {SECRET_NAMES.map((name) => (
            <FragmentRow
              key={name}
              label={SECRET_LABELS[name]}
              value={profile.secrets[name].hint ?? 'not available'}
            />
          ))}
        </dl>
        <section className="stack" aria-label="Credentials as .env" style={{ gap: 8 }}>
          <h3>Point your own app at the stack</h3>
          <p className="muted">
            The variables the Upstash SDKs read (<code>QSTASH_URL</code>, <code>QSTASH_TOKEN</code>, both
            signing keys, <code>UPSTASH_REDIS_REST_URL</code> and <code>UPSTASH_REDIS_REST_TOKEN</code>) as a
            .env file. They are this stack's own local secrets, good only on this computer.
          </p>
          <SecretDelivery
            label="Copy credentials as .env"
            what="the .env file"
            fileName="switchyard-local.env"
            icon={<CopyIcon />}
            disabled={stack?.state !== 'ready'}
            busy={copyEnv.isPending}
            onSend={(to) => copyEnv.mutate({ to })}
            result={written}
            error={copyEnv.isError ? errorMessage(copyEnv.error) : null}
          />
        </section>
      </div>
    </section>
  );
}

function FragmentRow({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd className="mono">{value}</dd>
    </>
  );
}
