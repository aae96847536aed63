// Signing keys: the current and next key, masked (the keys are secrets and stay in main), and rotation
// with a confirmation that says what it does to receivers.
import type { ProfileView } from '../../../../../shared/profiles';
import { errorMessage } from '../../../bridge/client';
import { useBridgeMutation, useBridgeQuery } from '../../../bridge/react';
import { ActiveService } from '../../../shell/ActiveService';
import { Button } from '../../../ui/Button';
import { confirm } from '../../../ui/confirm';
import { LockIcon, RefreshIcon } from '../../../ui/icons';
import { Callout } from '../../../ui/misc';
import { QueryView } from '../../../ui/QueryView';
import { toast } from '../../../ui/toast';
import { WriteButton } from '../../../ui/WriteButton';
import './signing-keys.css';

export default function SigningKeysTab(_props: { params: string[] }) {
  return <ActiveService>{(profile) => <SigningKeys profile={profile} />}</ActiveService>;
}

const PROFILE_KEYS: Record<string, { tone: 'info' | 'success' | 'warning'; text: string }> = {
  builtIn: { tone: 'info', text: 'The Local profile always uses the local stack’s keys.' },
  match: { tone: 'success', text: 'The signing keys stored in this profile match the service.' },
  differ: {
    tone: 'warning',
    text: 'The signing keys stored in this profile differ from the service’s. Update them in Profiles, or rotate here to store the new pair.',
  },
  none: {
    tone: 'info',
    text: 'This profile stores no signing keys; that is fine unless you verify signatures with Switchyard.',
  },
};

function SigningKeys({ profile }: { profile: ProfileView }) {
  const keys = useBridgeQuery('messages.signingKeys.get', { profileId: profile.id });
  const rotate = useBridgeMutation('messages.signingKeys.rotate', {
    onSuccess: (result) =>
      toast.success(
        'Signing keys rotated',
        result.profileUpdated ? 'The profile’s stored keys were updated to the new pair.' : undefined,
      ),
    onError: (error) => toast.error('Could not rotate', errorMessage(error)),
  });
  const askRotate = async () => {
    const ok = await confirm({
      title: 'Rotate the signing keys?',
      body: (
        <div className="stack" style={{ gap: 8 }}>
          <p>
            The <strong>next</strong> key becomes the <strong>current</strong> key, and the service makes a
            new next key. Messages are signed with the new current key from now on.
          </p>
          <p>
            Receivers that verify with both keys keep working <em>once</em>: update every app to the new pair
            (current = the old next, plus the new next) before rotating again — a second rotation without that
            breaks signature verification and deliveries fail with 401/403 at your endpoints.
          </p>
        </div>
      ),
      confirmLabel: 'Rotate keys',
      danger: true,
      typeToConfirm: profile.env === 'prod' ? profile.name : undefined,
    });
    if (ok) rotate.mutate({ profileId: profile.id });
  };
  const status = keys.data ? PROFILE_KEYS[keys.data.profileKeys] : undefined;
  return (
    <div className="page-body">
      <div className="keys-page stack" style={{ gap: 16 }}>
        <p className="muted">
          Every delivery carries an <code>Upstash-Signature</code> JWT signed with the current key. Receivers
          verify it with the current key and fall back to the next one, so keys can be rolled without
          downtime.
        </p>
        <QueryView query={keys} failure="Could not load the keys.">
          {(data) => (
            <>
              <section className="card">
                <div className="card-header">
                  <LockIcon width={16} height={16} />
                  <h2>Signing keys</h2>
                  <span className="spacer" />
                  <Button
                    size="sm"
                    icon={<RefreshIcon />}
                    aria-label="Reload"
                    busy={keys.isFetching}
                    onClick={() => void keys.refetch()}
                  />
                </div>
                <div className="card-body">
                  <dl className="kv-list keys-list">
                    <dt>Current</dt>
                    <dd className="mono" data-testid="key-current">
                      {data.current}
                    </dd>
                    <dt>Next</dt>
                    <dd className="mono" data-testid="key-next">
                      {data.next}
                    </dd>
                  </dl>
                  <p className="faint keys-note">
                    Shown masked: the keys are secrets and never leave Switchyard’s back end. Copy them from
                    the service console or your secret manager.
                  </p>
                </div>
              </section>
              {status ? <Callout tone={status.tone}>{status.text}</Callout> : null}
              <div>
                <WriteButton
                  profile={profile}
                  variant="danger"
                  busy={rotate.isPending}
                  onClick={() => void askRotate()}
                >
                  Rotate keys…
                </WriteButton>
              </div>
            </>
          )}
        </QueryView>
      </div>
    </div>
  );
}
