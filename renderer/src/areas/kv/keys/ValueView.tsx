// The value of one key, by type: strings as text, JSON or hex (each editable); hashes, lists, sets, sorted
// sets and streams as tables paged with "load more", each row editable or removable, with an add row; JSON
// documents in the JSON editor (JsonEditor.tsx). A hash's fields may have TTLs of their own (Redis 7.4): a TTL
// column counting down when any field has one, and per field the key's TTL dialog (set, remove).
// Binary members (not valid UTF-8) show as marked hex; their rows are read-only except where the edit
// can carry the exact bytes (removal, a sorted-set score), so an edit never corrupts them.
import { type ReactNode, useEffect, useRef, useState } from 'react';
import type { InputOf } from '../../../../../shared/bridge/procedures';
import type { KvEdit, KvValuePage } from '../../../../../shared/bridge/procedures/kv/key-browser';
import { decodeUtf8, type KvBytes, kvBytesLabel, toHex } from '../../../../../shared/kv/bytes';
import { tokenizeCommandLine } from '../../../../../shared/kv/command-line';
import { base64ToBytes, bytesToBase64 } from '../../../../../shared/kv/resp2';
import type { ProfileView } from '../../../../../shared/profiles';
import { type BridgeClient, errorMessage } from '../../../bridge/client';
import { useBridge, useBridgeQuery } from '../../../bridge/react';
import { Button } from '../../../ui/Button';
import { Segmented } from '../../../ui/fields';
import { Form } from '../../../ui/Form';
import { ClockIcon, PlusIcon } from '../../../ui/icons';
import { RemoveRowButton } from '../../../ui/RemoveRowButton';
import { Badge, Callout } from '../../../ui/misc';
import { ErrorCallout } from '../../../ui/ErrorCallout';
import { failureOf, Waiting } from '../../../ui/Waiting';
import { TableHead } from '../../../ui/TableHead';
import { toast } from '../../../ui/toast';
import { useNow } from '../../../ui/use-now';
import { JsonEditor } from './JsonEditor';
import { plural } from '../../../ui/format';
import { formatTtl } from './format-ttl';
import { anyCountingDown, countedOut, stampExpiry, type TimedTtl, ttlLeft } from './ttl-countdown';
import { TtlDialog } from './TtlDialog';

const PAGE = 100;

/**
 * The first page of a key's value, read once its type is known (`type` empty until then). KeyDetail asks it,
 * so that one refresh line speaks for the key's facts and its value.
 */
export function useValueQuery(profileId: string, keyName: string, type: string) {
  return useBridgeQuery(
    'kv.keys.value',
    { profileId, key: keyName, type, cursor: '0', count: PAGE },
    { enabled: type !== '' },
  );
}

export function ValueView({
  profile,
  keyName,
  type,
  firstQuery,
  canWrite,
  onChanged,
}: {
  profile: ProfileView;
  keyName: string;
  type: string;
  firstQuery: ReturnType<typeof useValueQuery>;
  canWrite: boolean;
  onChanged: () => void;
}) {
  const bridge = useBridge();
  // Pages loaded after the first one, for the first page answered at `at`: a refreshed first page starts
  // the value again from the top (what came after it may have moved). Each with when it was read, from
  // which its field TTLs count down.
  const [loaded, setLoaded] = useState<{ at: number; pages: ReadPage[] }>({ at: 0, pages: [] });
  const more = loaded.at === firstQuery.dataUpdatedAt ? loaded.pages : [];
  const setMore = (pages: ReadPage[]) => setLoaded({ at: firstQuery.dataUpdatedAt, pages });
  const [loading, setLoading] = useState(false);
  const [moreError, setMoreError] = useState<unknown>();

  const loadMore = async (cursor: string) => {
    setLoading(true);
    try {
      const page = await readPage(bridge, {
        profileId: profile.id,
        key: keyName,
        type,
        cursor,
        count: PAGE,
      });
      setMore([...more, page]);
      setMoreError(undefined);
    } catch (e) {
      setMoreError(e);
    } finally {
      setLoading(false);
    }
  };

  /**
   * Runs an edit and reloads the value; throws with the server's text when it fails. A refused edit reloads it
   * too: what refused it may be a change under it (a field another client deleted), which the table then shows.
   */
  const apply = async (change: KvEdit) => {
    try {
      await bridge.call('kv.keys.edit', { profileId: profile.id, edit: change });
    } finally {
      // Pages after an edit may have shifted (list indexes, scan cursors): start again from the top.
      setMore([]);
      await firstQuery.refetch();
      onChanged();
    }
  };

  const edit = async (change: KvEdit) => {
    try {
      await apply(change);
      return true;
    } catch (e) {
      toast.error('The change was not saved', errorMessage(e));
      return false;
    }
  };

  const error = failureOf(firstQuery.error) ?? moreError;
  const read: ReadPage[] = firstQuery.data
    ? [{ page: firstQuery.data, readAt: firstQuery.dataUpdatedAt }, ...more]
    : [];
  const pages = read.map((r) => r.page);
  const rows = read.flatMap(pageRows);
  // Hooks stay above the early returns below.
  const ttlNow = useFieldTtlClock(rows, () => {
    // A field's TTL ran out: read the value again (the field is gone, or another client gave it a new one).
    void firstQuery.refetch();
    onChanged();
  });
  // The field whose TTL dialog is open, with its TTL at the moment it was opened.
  const [ttlOf, setTtlOf] = useState<{ row: Row; ttlMs: number }>();
  // A refused token says what to do (ErrorCallout), as everywhere.
  if (error) return <ErrorCallout error={error} title="Could not read the value." />;
  const first = pages[0];
  if (!first) return <Waiting query={firstQuery} />;
  const last = pages[pages.length - 1]!;
  const next = 'cursor' in last && last.cursor !== '' ? last.cursor : undefined;
  const loadMoreRow = next ? (
    <div className="row">
      <Button size="sm" busy={loading} onClick={() => void loadMore(next)}>
        Load more
      </Button>
      <span className="muted small">
        {rows.length.toLocaleString()} of {'total' in first ? first.total.toLocaleString() : '?'} loaded
      </span>
    </div>
  ) : null;

  switch (first.type) {
    case 'string':
      return (
        <StringEditor
          key={first.base64}
          page={first}
          canWrite={canWrite}
          onSave={(value, base64) => edit({ op: 'string.set', key: keyName, value, base64 })}
        />
      );
    case 'json':
      return <JsonEditor keyName={keyName} page={first} canWrite={canWrite} onEdit={apply} />;
    case 'other':
      return <Callout tone="info" title={first.message} />;
    default: {
      const table = collectionTable(first.type, keyName, edit);
      const hasBinary = rows.some((row) => isBinary(...row.cells));
      // Field TTLs: a column once any field has one; the TTL action wherever the service answered HPTTL.
      const ttlColumn = rows.some((row) => row.ttl && row.ttl.ttlMs !== -1)
        ? { title: 'TTL', cell: (row: Row) => <FieldTtl ttl={row.ttl} now={ttlNow} /> }
        : undefined;
      const ttlAction = (row: Row) =>
        row.ttl ? (
          <Button
            size="sm"
            variant="ghost"
            icon={<ClockIcon />}
            aria-label={`TTL of ${cellText(row.cells[0]!)}`}
            title="Set or remove this field's TTL"
            onClick={() => setTtlOf({ row, ttlMs: ttlLeft(row.ttl!, ttlNow) })}
          />
        ) : null;
      return (
        <>
          {hasBinary ? (
            <Callout tone="info" title="Some values are binary (not valid UTF-8).">
              They show as hex, marked <Badge tone="warning">hex</Badge>, and cannot be edited here; removing
              one targets its exact bytes
              {first.type === 'zset'
                ? ', and scores stay editable'
                : first.type === 'hash' && first.ttlMs
                  ? ', and field TTLs stay editable'
                  : ''}
              .
            </Callout>
          ) : null}
          {/* keyed by type: the add row's draft has one cell per column of its type */}
          <EditableTable
            key={first.type}
            {...table}
            rows={rows}
            canWrite={canWrite}
            extraColumn={ttlColumn}
            rowActions={first.type === 'hash' ? ttlAction : undefined}
          />
          {loadMoreRow}
          {ttlOf ? (
            <TtlDialog
              ttlMs={ttlOf.ttlMs}
              field={ttlOf.row.cells[0]!}
              onClose={() => setTtlOf(undefined)}
              onSave={async (ttlSeconds) => {
                const field = ttlOf.row.cells[0]!;
                await apply(
                  ttlSeconds === null
                    ? { op: 'hash.persist', key: keyName, field }
                    : { op: 'hash.expire', key: keyName, field, ttlMs: ttlSeconds * 1000 },
                );
                setTtlOf(undefined);
              }}
            />
          ) : null}
        </>
      );
    }
  }
}

type CollectionType = Exclude<KvValuePage['type'], 'string' | 'json' | 'other'>;

/** A page of the value and the time (ms) its answer arrived. */
interface ReadPage {
  page: KvValuePage;
  readAt: number;
}

/** Reads a page after the first, stamped with when it arrived (its field TTLs count down from then). */
async function readPage(bridge: BridgeClient, input: InputOf<'kv.keys.value'>): Promise<ReadPage> {
  const page = await bridge.call('kv.keys.value', input);
  return { page, readAt: Date.now() };
}

/**
 * The clock the shown field TTLs count down by: a tick each second while any counts down. When one reaches
 * zero, `onCountedOut` runs once for that reading of the value.
 */
function useFieldTtlClock(rows: Row[], onCountedOut: () => void): number {
  const timed = new Map<string, TimedTtl>();
  for (const row of rows) if (row.ttl) timed.set(row.id, row.ttl);
  const counting = anyCountingDown(timed);
  const now = useNow(counting ? 1_000 : 3_600_000);
  const out = countedOut(timed, now);
  // One call per set of counted-out fields as read: the answer that follows brings new rows (or the same
  // field with a new TTL), never a loop on one estimate.
  const outKey = out.map((id) => `${id}@${timed.get(id)!.expiresAt}`).join('\n');
  const onCountedOutRef = useRef(onCountedOut);
  useEffect(() => {
    onCountedOutRef.current = onCountedOut;
  });
  useEffect(() => {
    if (outKey) onCountedOutRef.current();
  }, [outKey]);
  return now;
}

/** A field's TTL cell: the time left, counting down; a faint dash without one. */
function FieldTtl({ ttl, now }: { ttl: TimedTtl | undefined; now: number }) {
  const left = ttl ? ttlLeft(ttl, now) : -1;
  if (left === -1) {
    return (
      <span className="kv-field-ttl kv-field-ttl-none">
        <span aria-hidden="true">—</span>
        <span className="visually-hidden">no expiry</span>
      </span>
    );
  }
  return <span className="kv-field-ttl">{formatTtl(left)}</span>;
}

/** How one collection type shows as an editable table: its columns and the edit each action sends. */
function collectionTable(
  type: CollectionType,
  key: string,
  edit: (change: KvEdit) => Promise<boolean>,
): Omit<Parameters<typeof EditableTable>[0], 'rows' | 'canWrite'> {
  /** A table of name → value pairs (hash fields, sorted-set members): Save and Add both set the pair. */
  const pairs = (set: (name: KvBytes, value: string) => KvEdit, remove: (name: KvBytes) => KvEdit) => ({
    editable: [false, true],
    onSave: (row: Row, cells: string[]) => edit(set(row.cells[0]!, cells[1]!)),
    onDelete: (row: Row) => edit(remove(row.cells[0]!)),
    onAdd: (cells: string[]) => edit(set(cells[0]!, cells[1]!)),
  });
  switch (type) {
    case 'hash':
      return {
        columns: ['Field', 'Value'],
        // A binary field's row is read-only (no Save), so the field set is text.
        ...pairs(
          (field, value) => ({ op: 'hash.set', key, field: field as string, value }),
          (field) => ({ op: 'hash.delete', key, field }),
        ),
      };
    case 'list':
      return {
        columns: ['Index', 'Value'],
        editable: [false, true],
        onSave: (row, cells) => edit({ op: 'list.set', key, index: Number(row.id), value: cells[1]! }),
        onDelete: (row) => edit({ op: 'list.remove', key, index: Number(row.id) }),
        addColumns: ['Value (pushed to the tail)'],
        onAdd: (cells) => edit({ op: 'list.push', key, side: 'right', value: cells[0]! }),
      };
    case 'set':
      return {
        columns: ['Member'],
        editable: [false],
        onDelete: (row) => edit({ op: 'set.remove', key, member: row.cells[0]! }),
        onAdd: (cells) => edit({ op: 'set.add', key, member: cells[0]! }),
      };
    case 'zset':
      return {
        columns: ['Member', 'Score'],
        // ZADD carries a binary member as its exact bytes, so a score edit is safe for every member.
        ...pairs(
          (member, score) => ({ op: 'zset.add', key, member, score }),
          (member) => ({ op: 'zset.remove', key, member }),
        ),
      };
    case 'stream':
      return {
        columns: ['Entry id', 'Fields'],
        editable: [false, false],
        onDelete: (row) => edit({ op: 'stream.delete', key, id: row.id }),
        addColumns: ['Fields: field value [field value …]'],
        onAdd: async (cells) => {
          const parsed = tokenizeCommandLine(cells[0]!);
          if (!parsed.ok || parsed.args.length === 0 || parsed.args.length % 2 !== 0) {
            toast.error('Not added', 'Give fields as pairs: field value [field value …]');
            return false;
          }
          const fields: [string, string][] = [];
          for (let i = 0; i < parsed.args.length; i += 2) fields.push([parsed.args[i]!, parsed.args[i + 1]!]);
          return edit({ op: 'stream.add', key, fields });
        },
      };
  }
}

/** One page's rows of a collection's table (none for strings, JSON and other types). */
function pageRows({ page: p, readAt }: ReadPage): Row[] {
  switch (p.type) {
    case 'hash':
      return p.entries.map(([f, v], i) => {
        const ttlMs = p.ttlMs?.[i];
        const row: Row = { id: rowId(f), cells: [f, v], binary: isBinary(f, v) };
        return ttlMs === undefined ? row : { ...row, ttl: stampExpiry({ ttlMs }, readAt) };
      });
    case 'list':
      return p.items.map((item) => ({
        id: String(item.index),
        cells: [String(item.index), item.value],
        binary: isBinary(item.value),
      }));
    case 'set':
      return p.members.map((m) => ({ id: rowId(m), cells: [m] }));
    case 'zset':
      return p.entries.map((e) => ({ id: rowId(e.member), cells: [e.member, e.score] }));
    case 'stream':
      return p.entries.map((e) => ({
        id: e.id,
        binary: isBinary(...e.fields.flat()),
        cells: [e.id, e.fields.map(([f, v]) => `${cellText(f)}=${cellText(v)}`).join('  ')],
      }));
    default:
      return [];
  }
}

/** How a string shows: the choices of "Show as", in order. */
const SHOW_AS = { text: 'Text', json: 'JSON', hex: 'Hex' };
type StringMode = keyof typeof SHOW_AS;

function StringEditor({
  page,
  canWrite,
  onSave,
}: {
  page: Extract<KvValuePage, { type: 'string' }>;
  canWrite: boolean;
  onSave: (value: string, base64: boolean) => Promise<boolean>;
}) {
  const bytes = base64ToBytes(page.base64);
  const text = decodeUtf8(bytes);
  const json = text !== undefined ? prettyJson(text) : undefined;
  const [mode, setMode] = useState<StringMode>(
    json !== undefined ? 'json' : text !== undefined ? 'text' : 'hex',
  );
  const shown = (m: StringMode) =>
    m === 'hex' ? toHex(bytes, Infinity) : m === 'json' ? (json ?? text ?? '') : (text ?? '');
  const initial = shown(mode);
  const [draft, setDraft] = useState(initial);
  const [problem, setProblem] = useState<string>();
  const changeMode = (m: StringMode) => {
    setMode(m);
    setDraft(shown(m));
    setProblem(undefined);
  };
  const editable = canWrite && !page.truncated;

  const save = async () => {
    if (mode === 'hex') {
      const clean = draft.replace(/\s+/g, '');
      if (!/^([0-9a-fA-F]{2})*$/.test(clean)) return setProblem('Hex needs pairs of 0-9 a-f.');
      const out = new Uint8Array(clean.length / 2);
      for (let i = 0; i < out.length; i += 1) out[i] = parseInt(clean.slice(i * 2, i * 2 + 2), 16);
      setProblem(undefined);
      await onSave(bytesToBase64(out), true);
      return;
    }
    if (mode === 'json') {
      try {
        JSON.parse(draft);
      } catch (e) {
        return setProblem(`Not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    setProblem(undefined);
    await onSave(draft, false);
  };

  return (
    <div className="kv-string">
      <div className="row">
        <Segmented label="Show as" value={mode} onChange={changeMode} options={SHOW_AS} />
        <span className="muted small">
          {plural(page.length, 'byte')}
          {text === undefined ? ' · not valid UTF-8' : ''}
          {page.truncated ? ' · shown cut at 1 MB (read-only here)' : ''}
        </span>
      </div>
      {mode === 'json' && json === undefined ? (
        <Callout tone="warning" title="This value is not JSON." />
      ) : null}
      <textarea
        className="textarea input-mono kv-string-editor"
        aria-label="Value"
        value={draft}
        readOnly={!editable}
        spellCheck={false}
        rows={14}
        onChange={(event) => setDraft(event.target.value)}
      />
      {problem ? <div className="field-error">{problem}</div> : null}
      {editable ? (
        <div className="row">
          <Button variant="primary" disabled={draft === initial} onClick={() => void save()}>
            Save
          </Button>
          <span className="muted small">SET … KEEPTTL: the expiry stays.</span>
        </div>
      ) : null}
    </div>
  );
}

function prettyJson(text: string): string | undefined {
  const trimmed = text.trim();
  if (
    !trimmed ||
    (!'{["'.includes(trimmed[0]!) && !/^-?\d/.test(trimmed) && !/^(true|false|null)$/.test(trimmed))
  ) {
    return undefined;
  }
  try {
    return JSON.stringify(JSON.parse(trimmed), null, 2);
  } catch {
    return undefined;
  }
}

interface Row {
  /** Unique within the table (binary members get a prefix no text member can collide with). */
  id: string;
  /** Text, or a binary member's exact bytes (what removals and score edits target). */
  cells: KvBytes[];
  /** A value in the row is not valid UTF-8: shown as hex and not editable here. */
  binary?: boolean;
  /** A hash field's TTL as read (absent when the service did not answer HPTTL, and for other types). */
  ttl?: TimedTtl;
}

function rowId(member: KvBytes): string {
  return typeof member === 'string' ? `t:${member}` : `b:${member.base64}`;
}

function isBinary(...values: KvBytes[]): boolean {
  return values.some((value) => typeof value !== 'string');
}

/** A member as plain text (binary as marked hex), for composite cells and labels. */
function cellText(value: KvBytes): string {
  const label = kvBytesLabel(value);
  return label.binary ? `hex:${label.text.replace(/\s+/g, '')}` : label.text;
}

const BINARY_READ_ONLY =
  'Not valid UTF-8: shown as hex and read-only here (removing it targets the exact bytes). Use the workbench to change it.';

function Cell({ value }: { value: KvBytes }) {
  const label = kvBytesLabel(value);
  if (!label.binary) return <span className="kv-cell-text">{label.text}</span>;
  return (
    <span className="kv-cell-text kv-cell-binary" title="Not valid UTF-8: the bytes in hex">
      <Badge tone="warning">hex</Badge> {label.text}
    </span>
  );
}

function EditableTable({
  columns,
  editable,
  rows,
  canWrite,
  onSave,
  onDelete,
  onAdd,
  addColumns,
  extraColumn,
  rowActions,
}: {
  columns: string[];
  editable: boolean[];
  rows: Row[];
  canWrite: boolean;
  onSave?: (row: Row, cells: string[]) => Promise<boolean>;
  onDelete: (row: Row) => Promise<boolean>;
  onAdd: (cells: string[]) => Promise<boolean>;
  addColumns?: string[];
  /** A read-only column after the row's cells (a hash field's TTL); not part of the add row. */
  extraColumn?: { title: string; cell: (row: Row) => ReactNode } | undefined;
  /** More actions of a row, before Edit (a hash field's TTL). */
  rowActions?: ((row: Row) => ReactNode) | undefined;
}) {
  const [editing, setEditing] = useState<{ id: string; cells: string[] }>();
  const adding = addColumns ?? columns;
  const [draft, setDraft] = useState<string[]>(adding.map(() => ''));
  return (
    <div className="kv-value-table-wrap">
      <table className="table kv-value-table" data-testid="value-table">
        <TableHead
          columns={extraColumn ? [...columns, extraColumn.title] : columns}
          actions={canWrite}
          actionsClassName="kv-actions-col"
        />
        <tbody>
          {rows.map((row) => {
            const isEditing = editing?.id === row.id;
            return (
              <tr key={row.id} data-testid="value-row">
                {row.cells.map((cell, i) => (
                  <td key={i} className="kv-cell">
                    {isEditing && editable[i] ? (
                      <input
                        className="input input-mono"
                        aria-label={`Edit ${columns[i]}`}
                        value={editing.cells[i] ?? ''}
                        autoFocus
                        onChange={(event) =>
                          setEditing({
                            id: row.id,
                            cells: editing.cells.map((c, j) => (j === i ? event.target.value : c)),
                          })
                        }
                        onKeyDown={(event) => {
                          if (event.key === 'Enter')
                            void onSave?.(row, editing.cells).then((ok) => ok && setEditing(undefined));
                          if (event.key === 'Escape') setEditing(undefined);
                        }}
                      />
                    ) : (
                      <Cell value={cell} />
                    )}
                  </td>
                ))}
                {extraColumn ? <td className="kv-extra-col">{extraColumn.cell(row)}</td> : null}
                {canWrite ? (
                  <td className="kv-actions-col">
                    {rowActions?.(row)}
                    {isEditing ? (
                      <Button
                        size="sm"
                        variant="primary"
                        onClick={() =>
                          void onSave?.(row, editing.cells).then((ok) => ok && setEditing(undefined))
                        }
                      >
                        Save
                      </Button>
                    ) : onSave && row.binary ? (
                      <span className="muted small kv-read-only" title={BINARY_READ_ONLY}>
                        read-only
                      </span>
                    ) : onSave ? (
                      <Button
                        size="sm"
                        variant="ghost"
                        onClick={() => setEditing({ id: row.id, cells: row.cells.map(cellText) })}
                      >
                        Edit
                      </Button>
                    ) : null}
                    <RemoveRowButton
                      label={`Remove ${cellText(row.cells[0]!)}`}
                      onClick={() => void onDelete(row)}
                    />
                  </td>
                ) : null}
              </tr>
            );
          })}
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length + (extraColumn ? 2 : 1)} className="muted">
                Empty.
              </td>
            </tr>
          ) : null}
        </tbody>
      </table>
      {canWrite ? (
        <Form
          className="kv-add-row"
          onSubmit={() => void onAdd(draft).then((ok) => ok && setDraft(adding.map(() => '')))}
        >
          {adding.map((label, i) => (
            <input
              key={label}
              className="input input-mono"
              aria-label={`New ${label}`}
              placeholder={label}
              value={draft[i]}
              onChange={(event) => setDraft(draft.map((d, j) => (j === i ? event.target.value : d)))}
            />
          ))}
          <Button
            type="submit"
            size="sm"
            icon={<PlusIcon />}
            disabled={draft.some((d, i) => i === 0 && d === '')}
          >
            Add
          </Button>
        </Form>
      ) : null}
    </div>
  );
}
