// Create a queue or change one (the service's upsert): name, parallelism, paused.
import { useState } from 'react';
import { checkName } from '../../../../../shared/messages/names';
import type { Queue } from '../../../../../shared/messages/types';
import type { ProfileView } from '../../../../../shared/profiles';
import { useBridgeMutation } from '../../../bridge/react';
import { ErrorCallout } from '../../../ui/ErrorCallout';
import { FormDialog } from '../../../ui/FormDialog';
import { Switch, TextField } from '../../../ui/fields';
import { toast } from '../../../ui/toast';

export function QueueDialog({
  profile,
  queue,
  onClose,
}: {
  profile: ProfileView;
  queue?: Queue;
  onClose: () => void;
}) {
  const [name, setName] = useState(queue?.name ?? '');
  const [parallelism, setParallelism] = useState(String(queue?.parallelism ?? 1));
  const [paused, setPaused] = useState(queue?.paused ?? false);
  const upsert = useBridgeMutation('messages.queues.upsert', {
    onSuccess: (saved) => {
      toast.success(queue ? `Updated ${saved.name}` : `Created ${saved.name}`);
      onClose();
    },
  });
  const nameError = queue ? undefined : checkName('queue', name.trim());
  const count = Number(parallelism);
  const parallelismError =
    !/^\d+$/.test(parallelism.trim()) || count < 1 || count > 1000
      ? 'a whole number from 1 to 1000'
      : undefined;
  return (
    <FormDialog
      onClose={onClose}
      title={queue ? `Edit queue ${queue.name}` : 'New queue'}
      submitLabel={queue ? 'Save' : 'Create queue'}
      disabled={Boolean(nameError || parallelismError) || profile.readOnly}
      busy={upsert.isPending}
      onSubmit={() => upsert.mutate({ profileId: profile.id, name: name.trim(), parallelism: count, paused })}
    >
      <TextField
        label="Name"
        value={name}
        mono
        disabled={Boolean(queue)}
        autoFocus={!queue}
        placeholder="emails"
        error={name && nameError ? nameError : undefined}
        hint="Letters, digits, - _ and ."
        onChange={(event) => setName(event.target.value)}
      />
      <TextField
        label="Parallelism"
        value={parallelism}
        inputMode="numeric"
        error={parallelismError}
        hint="How many messages are delivered at once. The service plans to retire values above 1 in favour of flow control."
        onChange={(event) => setParallelism(event.target.value)}
      />
      <Switch
        label="Paused"
        description="A paused queue accepts messages but delivers none until resumed."
        checked={paused}
        onChange={setPaused}
      />
      <ErrorCallout error={upsert.error} title="The service refused." />
    </FormDialog>
  );
}
