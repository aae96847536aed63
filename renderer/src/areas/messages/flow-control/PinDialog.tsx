// Pin a key's settings: parallelism and/or rate and period, fixed until unpinned (new messages no longer
// change them); pinning starts a new rate period. Asked first like every change of a key.
import { useState } from 'react';
import type { FlowControlInfo } from '../../../../../shared/messages/flow-control';
import type { ProfileView } from '../../../../../shared/profiles';
import { useBridgeMutation } from '../../../bridge/react';
import { confirmDanger } from '../../../ui/confirm-danger';
import { ErrorCallout } from '../../../ui/ErrorCallout';
import { TextField } from '../../../ui/fields';
import { FormDialog } from '../../../ui/FormDialog';
import { toast } from '../../../ui/toast';
import { type PinForm, pinFormOf, readPinForm } from './flow-control-model';

export function PinDialog({
  profile,
  info,
  onClose,
}: {
  profile: ProfileView;
  info: FlowControlInfo;
  onClose: () => void;
}) {
  const key = info.flowControlKey;
  const [form, setForm] = useState<PinForm>(() => pinFormOf(info));
  const { pin, errors } = readPinForm(form);
  const mutation = useBridgeMutation('messages.flowControl.pin', {
    onSuccess: () => {
      toast.success(`${key}: pinned`);
      onClose();
    },
  });
  const field = (name: keyof PinForm) => ({
    value: form[name],
    error: errors[name],
    onChange: (event: { target: { value: string } }) => setForm({ ...form, [name]: event.target.value }),
  });
  const submit = async () => {
    if (!pin) return;
    const ok = await confirmDanger(profile, {
      title: `Pin ${key}?`,
      body: 'Messages then no longer change these settings, and a new rate period starts now.',
      confirmLabel: 'Pin',
      typeOnProd: key,
    });
    if (ok) mutation.mutate({ profileId: profile.id, key, ...pin });
  };
  return (
    <FormDialog
      onClose={onClose}
      title={
        <>
          Pin <span className="mono">{key}</span>
        </>
      }
      submitLabel="Pin"
      disabled={!pin || profile.readOnly}
      busy={mutation.isPending}
      onSubmit={() => void submit()}
    >
      <p className="muted">
        Leave a field empty to keep taking it from the messages. A pin holds until you unpin it.
      </p>
      <TextField
        label="Parallelism"
        inputMode="numeric"
        mono
        placeholder="—"
        hint="Attempts in flight at once"
        {...field('parallelism')}
      />
      <TextField
        label="Rate"
        inputMode="numeric"
        mono
        placeholder="—"
        hint="Attempts started per period"
        {...field('rate')}
      />
      <TextField
        label="Period"
        mono
        placeholder="1s"
        hint="e.g. 1s, 1m, 1h (at most 7d)"
        {...field('period')}
      />
      <ErrorCallout error={mutation.error} title="The service refused." />
    </FormDialog>
  );
}
