// Create or edit a profile. Settings and secrets are saved together; secrets are write-only.
import { useState } from 'react';
import {
  MESSAGE_REGIONS,
  type ProfileView,
  retypeMessage,
  SECRET_LABELS,
  type SecretName,
  tokensToRetype,
} from '../../../../shared/profiles';
import { errorMessage } from '../../bridge/client';
import { useBridgeMutation, useBridgeQuery } from '../../bridge/react';
import { Button } from '../../ui/Button';
import { BoundTextField, Segmented, SelectField, Switch, TextField } from '../../ui/fields';
import { Form } from '../../ui/Form';
import { LockIcon } from '../../ui/icons';
import { Callout } from '../../ui/misc';
import { toast } from '../../ui/toast';
import {
  draftFromProfile,
  emptyDraft,
  isDirty,
  messagesUrlOf,
  type ProfileDraft,
  type RegionChoice,
  secretChangesFromDraft,
  settingsFromDraft,
  validateDraft,
} from './profile-draft';
import { SecretInput } from './SecretInput';

const ENV_OPTIONS = [
  { value: 'local', label: 'Local' },
  { value: 'dev', label: 'Dev' },
  { value: 'prod', label: 'Prod' },
] as const;

const MESSAGE_SECRETS: { name: SecretName; hint?: string }[] = [
  { name: 'messageToken', hint: 'Sent as "Authorization: Bearer …" to the message and workflow API.' },
  { name: 'currentSigningKey', hint: 'Optional: to verify signatures of deliveries.' },
  { name: 'nextSigningKey' },
];
const KV_SECRETS: { name: SecretName; hint?: string }[] = [
  { name: 'kvToken', hint: 'Full access.' },
  { name: 'kvReadOnlyToken', hint: 'Optional: used for browsing when you prefer not to hold write access.' },
];

export function ProfileEditor({
  profile,
  onSaved,
  onCancel,
}: {
  profile?: ProfileView;
  onSaved: (profile: ProfileView) => void;
  onCancel?: () => void;
}) {
  const original = profile ? draftFromProfile(profile) : emptyDraft();
  const [draft, setDraft] = useState<ProfileDraft>(original);
  const [submitted, setSubmitted] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const info = useBridgeQuery('app.info', {}, { staleTime: Infinity }).data;
  const errors = validateDraft(draft);
  const hasErrors = Object.keys(errors).length > 0;
  const dirty = !profile || isDirty(draft, original);
  // A URL moved to another host: main sends a stored token only to the host it was saved for.
  const retype = profile
    ? tokensToRetype(
        profile,
        settingsFromDraft(draft),
        (name) => profile.secrets[name].hasValue,
        secretChangesFromDraft(draft),
      )
    : [];
  const retypeNotice = (url: 'messagesUrl' | 'kvUrl') =>
    retype
      .filter((item) => item.url === url)
      .map((item) => (
        <div key={url} className="full">
          <Callout tone="warning" title="Type the token again.">
            {retypeMessage(item)}
          </Callout>
        </div>
      ));

  const onSuccess = (saved: ProfileView) => {
    // Typed secrets leave the form (and the DOM) as soon as main has them.
    setDraft(draftFromProfile(saved));
    setSubmitted(false);
    setServerError(null);
    toast.success(profile ? 'Profile saved' : 'Profile created', saved.name);
    onSaved(saved);
  };
  const onError = (error: unknown) => setServerError(errorMessage(error));
  const create = useBridgeMutation('profiles.create', { onSuccess, onError });
  const update = useBridgeMutation('profiles.update', { onSuccess, onError });

  const save = () => {
    setSubmitted(true);
    if (hasErrors || retype.length > 0) return;
    const settings = settingsFromDraft(draft);
    const secrets = secretChangesFromDraft(draft);
    if (profile) update.mutate({ id: profile.id, settings, secrets });
    else create.mutate({ settings, secrets });
  };

  const set = <K extends keyof ProfileDraft>(key: K, value: ProfileDraft[K]) =>
    setDraft((current) => ({ ...current, [key]: value }));
  const setSecret = (name: SecretName, edit: ProfileDraft['secrets'][SecretName]) =>
    setDraft((current) => ({ ...current, secrets: { ...current.secrets, [name]: edit } }));
  const secretInputs = (secrets: typeof MESSAGE_SECRETS) =>
    secrets.map(({ name, hint }) => (
      <SecretInput
        key={name}
        label={SECRET_LABELS[name]}
        hint={hint}
        status={profile?.secrets[name]}
        edit={draft.secrets[name]}
        onChange={(edit) => setSecret(name, edit)}
      />
    ));
  const shown = (field: keyof typeof errors) => (submitted ? errors[field] : undefined);
  const form = {
    values: draft,
    set: (patch: Partial<ProfileDraft>) => setDraft((current) => ({ ...current, ...patch })),
    error: (name: string) => shown(name as keyof typeof errors),
  };

  return (
    <Form
      className="stack"
      style={{ gap: 20 }}
      onSubmit={() => save()}
      aria-label={profile ? `Edit profile ${profile.name}` : 'New profile'}
    >
      <section className="card">
        <div className="card-header">
          <h2>General</h2>
        </div>
        <div className="card-body form-grid">
          <BoundTextField
            form={form}
            name="name"
            label="Name"
            autoFocus={!profile}
            placeholder="e.g. Staging EU"
          />
          <div className="field">
            <span className="field-label">Environment</span>
            <Segmented
              label="Environment"
              value={draft.env}
              options={ENV_OPTIONS}
              onChange={(env) => set('env', env)}
            />
            <span className="field-hint">
              {draft.env === 'prod'
                ? 'Production is marked in red everywhere and always asks before dangerous actions.'
                : 'Shown next to the profile name everywhere.'}
            </span>
          </div>
          <div className="full stack" style={{ gap: 10 }}>
            <Switch
              label="Read-only"
              description="Switchyard refuses every change with this profile — enforced in the back end, not only in the UI."
              checked={draft.readOnly}
              onChange={(value) => set('readOnly', value)}
            />
            <Switch
              label="Ask before dangerous actions"
              description={
                draft.env === 'prod'
                  ? 'Always on for production profiles.'
                  : 'Bulk retries, deletes and flushes ask first.'
              }
              checked={draft.env === 'prod' ? true : draft.confirmDangerous}
              disabled={draft.env === 'prod'}
              onChange={(value) => set('confirmDangerous', value)}
            />
          </div>
        </div>
      </section>

      <section className="card">
        <div className="card-header">
          <h2>Message &amp; workflow API</h2>
        </div>
        <div className="card-body form-grid">
          <SelectField
            label="Region"
            value={draft.region}
            onChange={(event) => set('region', event.target.value as RegionChoice)}
          >
            {MESSAGE_REGIONS.map((region) => (
              <option key={region.id} value={region.id}>
                {region.label}
              </option>
            ))}
            <option value="custom">Custom URL…</option>
          </SelectField>
          {draft.region === 'custom' ? (
            <TextField
              label="Base URL"
              mono
              value={draft.customMessagesUrl}
              placeholder="https://qstash.example.com"
              error={shown('messagesUrl')}
              onChange={(event) => set('customMessagesUrl', event.target.value)}
            />
          ) : (
            <TextField
              label="Base URL"
              mono
              value={messagesUrlOf(draft)}
              readOnly
              hint="Set by the region."
            />
          )}
          {secretInputs(MESSAGE_SECRETS)}
          {retypeNotice('messagesUrl')}
        </div>
      </section>

      <section className="card">
        <div className="card-header">
          <h2>KV REST</h2>
        </div>
        <div className="card-body form-grid">
          <BoundTextField
            form={form}
            name="kvUrl"
            label="REST URL"
            className="full"
            mono
            placeholder="https://your-db.upstash.io"
          />
          {secretInputs(KV_SECRETS)}
          {retypeNotice('kvUrl')}
        </div>
      </section>

      {info ? (
        <Callout tone={info.secretStorage.kind === 'file' ? 'warning' : 'info'}>
          <LockIcon width={14} height={14} style={{ verticalAlign: -2, marginRight: 4 }} />
          {info.secretStorage.description} Tokens stay in the back end; this window only ever sees a masked
          hint.
        </Callout>
      ) : null}

      {serverError ? (
        <Callout tone="danger" title="Not saved.">
          {serverError}
        </Callout>
      ) : null}

      <div className="row">
        <Button type="submit" variant="primary" busy={create.isPending || update.isPending} disabled={!dirty}>
          {profile ? 'Save changes' : 'Create profile'}
        </Button>
        {onCancel ? <Button onClick={onCancel}>Cancel</Button> : null}
        {profile && dirty ? (
          <Button variant="ghost" onClick={() => setDraft(original)}>
            Discard changes
          </Button>
        ) : null}
      </div>
    </Form>
  );
}
