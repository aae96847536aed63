// Sent messages of the active profile (history, kept by main, no tokens) and saved templates: reopen
// either into the composer (a batch into the batch builder), save the current message as a template.
import { useState } from 'react';
import type { HistoryEntry, Template } from '../../../../../shared/bridge/procedures/messages/composer';
import { type ComposerModel, describeDestination } from '../../../../../shared/composer/model';
import { errorMessage } from '../../../bridge/client';
import { useBridgeMutation, useBridgeQuery } from '../../../bridge/react';
import { useNav } from '../../../shell/nav';
import { Button } from '../../../ui/Button';
import { confirm } from '../../../ui/confirm';
import { Dialog } from '../../../ui/Dialog';
import { Segmented, TextField } from '../../../ui/fields';
import { Form } from '../../../ui/Form';
import { Badge, EmptyState } from '../../../ui/misc';
import { InboxIcon } from '../../../ui/icons';
import { toast } from '../../../ui/toast';
import { formatTime, plural } from '../../../ui/format';

export function LibraryDialog({
  open,
  initialView,
  onClose,
  profileId,
  current,
  onOpenModel,
  onOpenBatch,
}: {
  open: boolean;
  initialView: 'history' | 'templates';
  onClose: () => void;
  profileId: string;
  current: ComposerModel;
  onOpenModel: (model: ComposerModel) => void;
  onOpenBatch: (models: ComposerModel[]) => void;
}) {
  const [view, setView] = useState(initialView);
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Messages library"
      className="library-dialog"
      footer={<Button onClick={onClose}>Close</Button>}
    >
      <Segmented
        label="Library"
        value={view}
        options={{ history: 'Sent (this profile)', templates: 'Templates' }}
        onChange={setView}
      />
      {view === 'history' ? (
        <HistoryList
          profileId={profileId}
          onOpenModel={onOpenModel}
          onOpenBatch={onOpenBatch}
          onClose={onClose}
        />
      ) : (
        <TemplateList current={current} onOpenModel={onOpenModel} onClose={onClose} />
      )}
    </Dialog>
  );
}

function HistoryList({
  profileId,
  onOpenModel,
  onOpenBatch,
  onClose,
}: {
  profileId: string;
  onOpenModel: (model: ComposerModel) => void;
  onOpenBatch: (models: ComposerModel[]) => void;
  onClose: () => void;
}) {
  const navigate = useNav((state) => state.navigate);
  const history = useBridgeQuery('messages.composer.history', { profileId });
  const clear = useBridgeMutation('messages.composer.clearHistory', {
    onError: (error) => toast.error('Could not clear the history', errorMessage(error)),
  });
  const entries = history.data ?? [];
  if (history.isSuccess && entries.length === 0) {
    return (
      <EmptyState icon={<InboxIcon />} title="Nothing sent yet">
        Messages you send from this profile are listed here, to reopen and send again.
      </EmptyState>
    );
  }
  const open = (entry: HistoryEntry) => {
    if (entry.kind === 'batch') onOpenBatch(entry.models);
    else if (entry.models[0]) onOpenModel(entry.models[0]);
    onClose();
  };
  return (
    <div className="stack">
      <ul className="library-list" aria-label="Sent messages">
        {entries.map((entry) => (
          <li key={entry.id} className="library-item">
            <div className="library-main">
              <div className="row">
                <span className="mono library-title">{entry.summary}</span>
                {entry.kind === 'batch' ? <Badge tone="info">batch</Badge> : null}
                {entry.error ? <Badge tone="danger">failed</Badge> : null}
              </div>
              <div className="faint library-meta">
                {formatTime(entry.at)} ·{' '}
                {entry.error
                  ? entry.error
                  : `${entry.messageIds.length} message${entry.messageIds.length === 1 ? '' : 's'}`}
              </div>
            </div>
            <Button size="sm" onClick={() => open(entry)}>
              {entry.kind === 'batch' ? 'Open in batch' : 'Open'}
            </Button>
            {entry.messageIds[0] ? (
              <Button
                size="sm"
                variant="ghost"
                onClick={() => {
                  onClose();
                  navigate('messages', 'logs', entry.messageIds[0] as string);
                }}
              >
                Log trail
              </Button>
            ) : null}
          </li>
        ))}
      </ul>
      <div>
        <Button
          size="sm"
          variant="danger"
          busy={clear.isPending}
          onClick={async () => {
            const ok = await confirm({
              title: 'Clear the history of this profile?',
              body: `${plural(entries.length, 'entry', 'entries')} ${entries.length === 1 ? 'is' : 'are'} removed from this computer. The messages themselves are not affected.`,
              confirmLabel: 'Clear history',
              danger: true,
            });
            if (ok) clear.mutate({ profileId });
          }}
        >
          Clear history
        </Button>
      </div>
    </div>
  );
}

function TemplateList({
  current,
  onOpenModel,
  onClose,
}: {
  current: ComposerModel;
  onOpenModel: (model: ComposerModel) => void;
  onClose: () => void;
}) {
  const [name, setName] = useState('');
  const templates = useBridgeQuery('messages.composer.templates', {});
  const save = useBridgeMutation('messages.composer.saveTemplate', {
    onSuccess: (template) => {
      setName('');
      toast.success('Template saved', template.name);
    },
    onError: (error) => toast.error('Could not save the template', errorMessage(error)),
  });
  const remove = useBridgeMutation('messages.composer.deleteTemplate', {
    onError: (error) => toast.error('Could not delete the template', errorMessage(error)),
  });
  const exists = (templates.data ?? []).some((template: Template) => template.name === name.trim());
  return (
    <div className="stack">
      <Form
        className="row template-save"
        onSubmit={() => {
          if (name.trim()) save.mutate({ name: name.trim(), model: current });
        }}
      >
        <TextField
          label="Save the current message as"
          value={name}
          placeholder="e.g. Order created → billing"
          hint={
            exists
              ? 'A template with this name exists: saving replaces it.'
              : `Destination: ${describeDestination(current)}`
          }
          onChange={(event) => setName(event.target.value)}
        />
        <Button type="submit" variant="primary" disabled={!name.trim()} busy={save.isPending}>
          {exists ? 'Replace' : 'Save'}
        </Button>
      </Form>
      {templates.isSuccess && templates.data.length === 0 ? (
        <p className="muted">No templates yet.</p>
      ) : (
        <ul className="library-list" aria-label="Templates">
          {(templates.data ?? []).map((template) => (
            <li key={template.id} className="library-item">
              <div className="library-main">
                <span className="library-title">{template.name}</span>
                <div className="faint library-meta mono">{describeDestination(template.model)}</div>
              </div>
              <Button
                size="sm"
                onClick={() => {
                  onOpenModel(template.model);
                  onClose();
                }}
              >
                Open
              </Button>
              <Button
                size="sm"
                variant="ghost"
                aria-label={`Delete template ${template.name}`}
                onClick={async () => {
                  const ok = await confirm({
                    title: `Delete template "${template.name}"?`,
                    body: 'The template is removed from this computer.',
                    confirmLabel: 'Delete',
                    danger: true,
                  });
                  if (ok) remove.mutate({ id: template.id });
                }}
              >
                Delete
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
