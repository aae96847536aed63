// The key browser's JSON editor (issue 23): a JSON document as a tree that keeps its key order and number
// text (shared/kv/json-doc.ts); edit the value at a path, add a member or an item, remove one. Every change
// opens a dialog that shows the JSON.* command it runs (the same one main sends) before it runs.
import { useMemo, useState } from 'react';
import type { KvEdit, KvValuePage } from '../../../../../shared/bridge/procedures/kv/key-browser';
import { formatCommandLine } from '../../../../../shared/kv/command-line';
import {
  type JsonEdit,
  jsonEditCommand,
  type JsonNode,
  jsonPathOf,
  jsonPretty,
  type JsonStep,
  jsonText,
  parseJsonDoc,
} from '../../../../../shared/kv/json-doc';
import { Button } from '../../../ui/Button';
import { Segmented, TextField } from '../../../ui/fields';
import { FormDialog } from '../../../ui/FormDialog';
import { ChevronDownIcon, PlusIcon, TrashIcon } from '../../../ui/icons';
import { Callout } from '../../../ui/misc';
import { useAsyncSave } from '../../../ui/use-async-save';

/** Children shown per object or array before "more in the Text view". */
const CHILDREN_SHOWN = 500;
/** Characters of a scalar shown in its row (the dialog shows all of it). */
const PREVIEW_CHARS = 160;

type Action =
  | { mode: 'edit'; steps: JsonStep[]; node: JsonNode }
  | { mode: 'add'; steps: JsonStep[]; node: Extract<JsonNode, { kind: 'object' | 'array' }> }
  | { mode: 'remove'; steps: JsonStep[]; node: JsonNode };

export function JsonEditor({
  keyName,
  page,
  canWrite,
  onEdit,
}: {
  keyName: string;
  page: Extract<KvValuePage, { type: 'json' }>;
  canWrite: boolean;
  /** Runs an edit; throws with the server's text when it fails. */
  onEdit: (edit: KvEdit) => Promise<void>;
}) {
  const parsed = useMemo(() => parseJsonDoc(page.text), [page.text]);
  const [view, setView] = useState<'tree' | 'text'>('tree');
  // Open containers by path, kept across reloads after an edit; the root and its children start open.
  const [open, setOpen] = useState<ReadonlySet<string>>(() =>
    parsed.ok ? new Set(firstLevel(parsed.node)) : new Set(['$']),
  );
  const [action, setAction] = useState<Action>();

  if (page.truncated) {
    return (
      <Callout tone="warning" title={`This document is ${page.length.toLocaleString()} characters long.`}>
        The editor shows documents up to 1 MB. Read parts of it in the workbench, e.g.{' '}
        <code>JSON.GET {keyName} $.field</code>.
      </Callout>
    );
  }
  if (!parsed.ok) {
    return (
      <Callout tone="danger" title="The server's answer is not JSON.">
        {parsed.error}
      </Callout>
    );
  }
  const root = parsed.node;
  const toggle = (path: string) =>
    setOpen((old) => {
      const next = new Set(old);
      if (next.has(path)) next.delete(path);
      else next.add(path);
      return next;
    });

  return (
    <div className="kv-json" data-testid="json-editor">
      <div className="row">
        <Segmented label="Show as" value={view} onChange={setView} options={{ tree: 'Tree', text: 'Text' }} />
        <span className="muted small">
          {summary(root)} · {page.length.toLocaleString()} characters
        </span>
        <span className="spacer" />
        {view === 'tree' ? (
          <>
            <Button size="sm" variant="ghost" onClick={() => setOpen(new Set(containerPaths(root, [])))}>
              Expand all
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setOpen(new Set(['$']))}>
              Collapse all
            </Button>
          </>
        ) : null}
      </div>
      {view === 'text' ? (
        <pre className="kv-json-text" data-testid="json-text">
          {jsonPretty(root)}
        </pre>
      ) : (
        <div className="kv-json-tree" role="tree" aria-label={`JSON of ${keyName}`}>
          <JsonRow
            name="$"
            steps={[]}
            node={root}
            depth={0}
            open={open}
            canWrite={canWrite}
            onToggle={toggle}
            onAction={setAction}
          />
        </div>
      )}
      {action ? (
        <JsonActionDialog
          keyName={keyName}
          action={action}
          onClose={() => setAction(undefined)}
          onRun={async (edit) => {
            await onEdit(edit);
            // A new member or item is shown: its container stays open.
            if (action.mode === 'add') setOpen((old) => new Set(old).add(jsonPathOf(action.steps)));
            setAction(undefined);
          }}
        />
      ) : null}
    </div>
  );
}

function JsonRow({
  name,
  steps,
  node,
  depth,
  open,
  canWrite,
  onToggle,
  onAction,
}: {
  name: string;
  steps: JsonStep[];
  node: JsonNode;
  depth: number;
  open: ReadonlySet<string>;
  canWrite: boolean;
  onToggle: (path: string) => void;
  onAction: (action: Action) => void;
}) {
  const path = jsonPathOf(steps);
  const container = node.kind === 'object' || node.kind === 'array' ? node : undefined;
  const isOpen = container !== undefined && open.has(path);
  const children: [JsonStep, JsonNode][] =
    node.kind === 'object'
      ? node.entries
      : node.kind === 'array'
        ? node.items.map((item, i) => [i, item])
        : [];
  return (
    <>
      <div
        role="treeitem"
        aria-level={depth + 1}
        aria-expanded={container ? isOpen : undefined}
        className="kv-json-row"
        style={{ paddingLeft: 4 + depth * 18 }}
        data-testid="json-row"
        data-path={path}
      >
        {container ? (
          <button
            type="button"
            className="kv-json-toggle"
            aria-label={`${isOpen ? 'Collapse' : 'Expand'} ${path}`}
            onClick={() => onToggle(path)}
          >
            <ChevronDownIcon className={isOpen ? 'kv-chevron' : 'kv-chevron kv-chevron-closed'} />
          </button>
        ) : (
          <span className="kv-json-toggle" />
        )}
        <span className="kv-json-name">{name}</span>
        <span className={`kv-json-value kv-json-${node.kind}`}>{preview(node)}</span>
        {canWrite ? (
          <span className="kv-json-actions">
            <Button size="sm" variant="ghost" onClick={() => onAction({ mode: 'edit', steps, node })}>
              Edit
            </Button>
            {container ? (
              <Button
                size="sm"
                variant="ghost"
                icon={<PlusIcon />}
                aria-label={`Add to ${path}`}
                onClick={() => onAction({ mode: 'add', steps, node: container })}
              />
            ) : null}
            {steps.length > 0 ? (
              <Button
                size="sm"
                variant="ghost"
                icon={<TrashIcon />}
                aria-label={`Remove ${path}`}
                onClick={() => onAction({ mode: 'remove', steps, node })}
              />
            ) : null}
          </span>
        ) : null}
      </div>
      {isOpen
        ? children
            .slice(0, CHILDREN_SHOWN)
            .map(([step, child]) => (
              <JsonRow
                key={String(step)}
                name={typeof step === 'number' ? `[${step}]` : step}
                steps={[...steps, step]}
                node={child}
                depth={depth + 1}
                open={open}
                canWrite={canWrite}
                onToggle={onToggle}
                onAction={onAction}
              />
            ))
        : null}
      {isOpen && children.length > CHILDREN_SHOWN ? (
        <div className="kv-json-row muted small" style={{ paddingLeft: 4 + (depth + 1) * 18 }}>
          {(children.length - CHILDREN_SHOWN).toLocaleString()} more — the Text view shows all of them
        </div>
      ) : null}
    </>
  );
}

function JsonActionDialog({
  keyName,
  action,
  onClose,
  onRun,
}: {
  keyName: string;
  action: Action;
  onClose: () => void;
  onRun: (edit: JsonEdit) => Promise<void>;
}) {
  const path = jsonPathOf(action.steps);
  const [value, setValue] = useState(() =>
    action.mode === 'edit'
      ? action.node.kind === 'object' || action.node.kind === 'array'
        ? jsonPretty(action.node)
        : jsonText(action.node)
      : '',
  );
  const [member, setMember] = useState('');
  const { busy, error, run } = useAsyncSave(onRun);
  const addingMember = action.mode === 'add' && action.node.kind === 'object';
  const taken =
    addingMember && action.node.kind === 'object' && action.node.entries.some(([n]) => n === member);
  const valueCheck = action.mode === 'remove' ? undefined : value.trim() ? parseJsonDoc(value) : undefined;
  const valueError = valueCheck && !valueCheck.ok ? `Not valid JSON: ${valueCheck.error}` : undefined;
  const edit = editOf(keyName, action, value.trim(), member);
  const ready =
    action.mode === 'remove' || (valueCheck?.ok === true && (!addingMember || (member !== '' && !taken)));
  const command = jsonEditCommand(edit);
  return (
    <FormDialog
      onClose={onClose}
      title={
        action.mode === 'edit'
          ? `Edit ${path}`
          : action.mode === 'remove'
            ? `Remove ${path}`
            : addingMember
              ? `Add a member to ${path}`
              : `Append an item to ${path}`
      }
      submitLabel={`Run ${command[0]}`}
      busy={busy}
      disabled={!ready}
      onSubmit={() => void run(edit)}
    >
      {addingMember ? (
        <TextField
          label="Member name"
          mono
          autoFocus
          value={member}
          error={taken ? 'this member exists: edit it instead' : undefined}
          onChange={(event) => setMember(event.target.value)}
        />
      ) : null}
      {action.mode === 'remove' ? (
        <p className="muted">
          {action.steps.length === 1 && typeof action.steps[0] === 'string'
            ? 'The member is removed from the document.'
            : 'The value is removed from the document.'}{' '}
          The key stays (JSON.DEL of the root would delete the key).
        </p>
      ) : (
        <label className="field">
          <span className="field-label">Value (JSON)</span>
          <textarea
            className="textarea input-mono kv-json-input"
            aria-label="Value (JSON)"
            value={value}
            rows={Math.min(16, Math.max(3, value.split('\n').length + 1))}
            spellCheck={false}
            autoFocus={!addingMember}
            placeholder={'"text", 42, true, null, {"a": 1} or [1, 2]'}
            onChange={(event) => setValue(event.target.value)}
          />
          {valueError ? <span className="field-error">{valueError}</span> : null}
        </label>
      )}
      <div className="field">
        <span className="field-label">Command</span>
        <pre className="kv-json-command" data-testid="json-command">
          {formatCommandLine(command)}
        </pre>
      </div>
      {error ? <div className="field-error">{error}</div> : null}
    </FormDialog>
  );
}

/** The edit a dialog runs: replace the value at the path, add a member (NX) or item, or remove. */
function editOf(key: string, action: Action, value: string, member: string): JsonEdit {
  const path = jsonPathOf(action.steps);
  switch (action.mode) {
    case 'edit':
      return { op: 'json.set', key, path, value };
    case 'remove':
      return { op: 'json.delete', key, path };
    case 'add':
      return action.node.kind === 'object'
        ? { op: 'json.set', key, path: jsonPathOf([...action.steps, member]), value, nx: true }
        : { op: 'json.append', key, path, value };
  }
}

function preview(node: JsonNode): string {
  if (node.kind === 'object') return `{…} ${count(node.entries.length, 'member')}`;
  if (node.kind === 'array') return `[…] ${count(node.items.length, 'item')}`;
  const text = jsonText(node);
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
}

function summary(node: JsonNode): string {
  if (node.kind === 'object') return `object · ${count(node.entries.length, 'member')}`;
  if (node.kind === 'array') return `array · ${count(node.items.length, 'item')}`;
  return node.kind;
}

function count(n: number, noun: string): string {
  return `${n.toLocaleString()} ${noun}${n === 1 ? '' : 's'}`;
}

/** Every object and array path in a tree, for "Expand all". */
function containerPaths(node: JsonNode, steps: JsonStep[]): string[] {
  if (node.kind === 'object') {
    return [
      jsonPathOf(steps),
      ...node.entries.flatMap(([name, child]) => containerPaths(child, [...steps, name])),
    ];
  }
  if (node.kind === 'array') {
    return [jsonPathOf(steps), ...node.items.flatMap((child, i) => containerPaths(child, [...steps, i]))];
  }
  return [];
}

/** The root and the containers right under it. */
function firstLevel(root: JsonNode): string[] {
  if (root.kind === 'object')
    return ['$', ...root.entries.filter(([, c]) => isContainer(c)).map(([n]) => jsonPathOf([n]))];
  if (root.kind === 'array')
    return ['$', ...root.items.flatMap((c, i) => (isContainer(c) ? [jsonPathOf([i])] : []))];
  return ['$'];
}

function isContainer(node: JsonNode): boolean {
  return node.kind === 'object' || node.kind === 'array';
}
