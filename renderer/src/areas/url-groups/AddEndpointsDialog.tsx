// Create a group, or add endpoints to one: paste one endpoint per line, see what each line does, send.
import { useMemo, useState } from 'react';
import { checkName } from '../../../../shared/messages/names';
import type { UrlGroup } from '../../../../shared/messages/types';
import type { ProfileView } from '../../../../shared/profiles';
import { useBridgeMutation } from '../../bridge/react';
import { ErrorCallout } from '../../ui/ErrorCallout';
import { FormDialog } from '../../ui/FormDialog';
import { TextareaField, TextField } from '../../ui/fields';
import { plural } from '../../ui/format';
import { Badge } from '../../ui/misc';
import { ScrollTable } from '../../ui/ScrollTable';
import { toast } from '../../ui/toast';
import { type EndpointLineStatus, parseEndpoints } from './parse-endpoints';

const STATUS: Record<
  EndpointLineStatus,
  { label: string; tone?: 'success' | 'warning' | 'danger' | 'info' }
> = {
  add: { label: 'Add', tone: 'success' },
  rename: { label: 'Rename', tone: 'info' },
  unchanged: { label: 'Already there' },
  invalid: { label: 'Invalid', tone: 'danger' },
};

export function AddEndpointsDialog({
  profile,
  group,
  onClose,
  onDone,
}: {
  profile: ProfileView;
  /** The group to add to; without it the dialog creates a new group. */
  group?: UrlGroup;
  onClose: () => void;
  onDone?: (group: UrlGroup) => void;
}) {
  const [name, setName] = useState('');
  const [text, setText] = useState('');
  const [touched, setTouched] = useState(false);
  const parsed = useMemo(() => parseEndpoints(text, group?.endpoints ?? []), [text, group]);
  const nameError = group ? undefined : checkName('URL group', name.trim());
  const add = useBridgeMutation('messages.urlGroups.addEndpoints', {
    onSuccess: (saved) => {
      toast.success(
        group ? `Added to ${saved.name}` : `Created ${saved.name}`,
        `${plural(saved.endpoints.length, 'endpoint')} in the group now.`,
      );
      onDone?.(saved);
      onClose();
    },
  });
  const canSend = parsed.toSend.length > 0 && parsed.invalid === 0 && !nameError && !profile.readOnly;
  const title = group ? `Add endpoints to ${group.name}` : 'New URL group';
  return (
    <FormDialog
      onClose={onClose}
      title={title}
      className="dialog-wide"
      note={
        <span className="muted dialog-footer-note">
          {parsed.lines.length === 0
            ? 'Nothing pasted yet'
            : parsed.invalid
              ? `Fix or remove ${plural(parsed.invalid, 'invalid line')} to continue`
              : `${plural(parsed.toSend.length, 'change')} to send`}
        </span>
      }
      submitLabel={group ? `Add ${plural(parsed.toSend.length, 'endpoint')}` : 'Create group'}
      disabled={!canSend}
      busy={add.isPending}
      onSubmit={() =>
        add.mutate({ profileId: profile.id, name: group?.name ?? name.trim(), endpoints: parsed.toSend })
      }
    >
      {!group ? (
        <TextField
          label="Name"
          value={name}
          autoFocus
          mono
          placeholder="orders"
          hint="Letters, digits, - _ and ."
          error={touched && nameError ? nameError : undefined}
          onChange={(event) => setName(event.target.value)}
          onBlur={() => setTouched(true)}
        />
      ) : null}
      <TextareaField
        label="Endpoints, one per line"
        className="endpoints-input"
        value={text}
        autoFocus={Boolean(group)}
        spellCheck={false}
        placeholder={'invoices https://billing.example.com/hooks/invoice\nhttps://audit.example.com/ingest'}
        hint="“name URL” or just the URL; the name is optional. Lines starting with # are ignored."
        onChange={(event) => setText(event.target.value)}
      />
      {parsed.lines.length > 0 ? (
        <ScrollTable
          label="What will be sent"
          className="endpoint-preview"
          columns={['Line', 'Name', 'URL', 'Result']}
        >
          {parsed.lines.map((line) => (
            <tr key={line.line} data-status={line.status}>
              <td className="num faint">{line.line}</td>
              <td className="mono">{line.endpoint?.name ?? <span className="faint">—</span>}</td>
              <td className="mono cell-wrap">{line.endpoint?.url ?? line.raw}</td>
              <td>
                <Badge tone={STATUS[line.status].tone}>{STATUS[line.status].label}</Badge>
                {line.note ? <div className="cell-note">{line.note}</div> : null}
              </td>
            </tr>
          ))}
        </ScrollTable>
      ) : null}
      <ErrorCallout error={add.error} title="The service refused." />
    </FormDialog>
  );
}
