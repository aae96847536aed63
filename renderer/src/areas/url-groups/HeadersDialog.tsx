// Edit a URL group's default headers in two steps: edit the rows, then review the before/after diff and
// apply (`PATCH /v2/topics/{name}` with the whole new set).
import { useMemo, useState } from 'react';
import type { UrlGroup } from '../../../../shared/messages/types';
import type { ProfileView } from '../../../../shared/profiles';
import { useBridgeMutation } from '../../bridge/react';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { ErrorCallout } from '../../ui/ErrorCallout';
import { PlusIcon, XIcon } from '../../ui/icons';
import { Badge } from '../../ui/misc';
import { TableHead } from '../../ui/TableHead';
import { toast } from '../../ui/toast';
import { diffHeaders, type HeaderRow, headersFromRows, rowsFromHeaders } from './header-diff';

const KIND_TONE = { added: 'success', removed: 'danger', changed: 'warning', same: undefined } as const;

export function HeadersDialog({
  profile,
  group,
  onClose,
}: {
  profile: ProfileView;
  group: UrlGroup;
  onClose: () => void;
}) {
  const [rows, setRows] = useState<HeaderRow[]>(() => {
    const initial = rowsFromHeaders(group.headers);
    return initial.length > 0 ? initial : [{ name: '', value: '' }];
  });
  const [step, setStep] = useState<'edit' | 'review'>('edit');
  const { headers, errors } = useMemo(() => headersFromRows(rows), [rows]);
  const diff = useMemo(() => diffHeaders(group.headers, headers), [group.headers, headers]);
  const changes = diff.filter((change) => change.kind !== 'same');
  const save = useBridgeMutation('messages.urlGroups.setHeaders', {
    onSuccess: () => {
      toast.success(`Default headers of ${group.name} updated`);
      onClose();
    },
  });
  const update = (index: number, patch: Partial<HeaderRow>) =>
    setRows((current) => current.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  const hasErrors = Object.keys(errors).length > 0;

  return (
    <Dialog
      open
      onClose={onClose}
      title={step === 'edit' ? `Default headers of ${group.name}` : 'Review the change'}
      className="dialog-wide"
      footer={
        step === 'edit' ? (
          <>
            <Button onClick={onClose}>Cancel</Button>
            <Button
              variant="primary"
              disabled={hasErrors || changes.length === 0}
              onClick={() => setStep('review')}
            >
              Review{' '}
              {changes.length > 0 ? `${changes.length} change${changes.length === 1 ? '' : 's'}` : 'changes'}
            </Button>
          </>
        ) : (
          <>
            <Button onClick={() => setStep('edit')}>Back</Button>
            <Button
              variant="primary"
              busy={save.isPending}
              disabled={profile.readOnly}
              onClick={() => save.mutate({ profileId: profile.id, name: group.name, headers })}
            >
              Apply
            </Button>
          </>
        )
      }
    >
      {step === 'edit' ? (
        <>
          <div className="group-header-rows" role="group" aria-label="Header rows">
            {rows.map((row, index) => (
              <div key={index} className="group-header-row">
                <input
                  className="input input-mono"
                  aria-label={`Header ${index + 1} name`}
                  placeholder="Upstash-Forward-X-Team"
                  value={row.name}
                  aria-invalid={errors[index] ? true : undefined}
                  onChange={(event) => update(index, { name: event.target.value })}
                />
                <input
                  className="input input-mono"
                  aria-label={`Header ${index + 1} value`}
                  placeholder="value"
                  value={row.value}
                  onChange={(event) => update(index, { value: event.target.value })}
                />
                <Button
                  variant="ghost"
                  size="sm"
                  icon={<XIcon />}
                  aria-label={`Remove header ${index + 1}`}
                  onClick={() => setRows((current) => current.filter((_, i) => i !== index))}
                />
                {errors[index] ? (
                  <span className="field-error group-header-row-error">{errors[index]}</span>
                ) : null}
              </div>
            ))}
          </div>
          <div>
            <Button
              size="sm"
              icon={<PlusIcon />}
              onClick={() => setRows((current) => [...current, { name: '', value: '' }])}
            >
              Add header
            </Button>
          </div>
          <p className="field-hint">
            Repeat a name for several values. Names are sent in canonical case (<code>x-team</code> →{' '}
            <code>X-Team</code>).
          </p>
        </>
      ) : (
        <>
          <p className="muted">
            Every message published to <strong>{group.name}</strong> after you apply gets these defaults.
          </p>
          <table className="table table-compact diff-table" aria-label="Header changes">
            <TableHead columns={['Header', 'Before', 'After', 'Change']} />
            <tbody>
              {diff.map((change) => (
                <tr key={change.name} data-kind={change.kind}>
                  <td className="mono">{change.name}</td>
                  <td className="mono diff-before">
                    {change.before?.join(', ') ?? <span className="faint">—</span>}
                  </td>
                  <td className="mono diff-after">
                    {change.after?.join(', ') ?? <span className="faint">—</span>}
                  </td>
                  <td>
                    {change.kind !== 'same' ? (
                      <Badge tone={KIND_TONE[change.kind]}>{change.kind}</Badge>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <ErrorCallout error={save.error} title="The service refused." />
        </>
      )}
    </Dialog>
  );
}
