// The KV workbench: a command line (one command, or a multi-line script) with history kept by main,
// autocomplete with inline docs, per-command timing and results rendered by shape in the chosen reply
// format; and a pipeline / transaction editor whose rows show their own result or error.
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import type { KvCommandResult, KvReplyFormat } from '../../../../../shared/bridge/procedures/kv/workbench';
import {
  BUNDLED_COMMAND_DOCS,
  type CommandDoc,
  completeCommandName,
} from '../../../../../shared/kv/commands';
import type { ProfileView } from '../../../../../shared/profiles';
import { errorMessage } from '../../../bridge/client';
import { bridgeKey, useBridge, useBridgeQuery } from '../../../bridge/react';
import { ActiveService } from '../../../shell/ActiveService';
import { Button } from '../../../ui/Button';
import { Segmented } from '../../../ui/fields';
import { formatRelative } from '../../../ui/format';
import { Badge, Callout, Kbd } from '../../../ui/misc';
import { AccessHelp } from '../../../ui/service-access';
import { askBeforeDanger } from '../kv-safety';
import '../kv.css';
import { PipelineEditor } from './PipelineEditor';
import { RawView, ReplyValue } from './ResultView';
import { commandNameAt, commandWordAt, parseScript } from './script';

export const FORMAT_OPTIONS: { value: KvReplyFormat; label: string }[] = [
  { value: 'json', label: 'JSON' },
  { value: 'base64', label: 'Base64' },
  { value: 'resp2', label: 'RESP2' },
];

type Mode = 'command' | 'pipeline' | 'transaction';

interface OutputEntry {
  id: number;
  text: string;
  format: KvReplyFormat;
  results: KvCommandResult[];
  skipped: number;
  error?: string;
  /** The failed call itself, for what to do when the service refused the profile's token. */
  failure?: unknown;
}

export default function WorkbenchTab(_props: { params: string[] }) {
  return <ActiveService service="kv">{(profile) => <Workbench profile={profile} />}</ActiveService>;
}

function Workbench({ profile }: { profile: ProfileView }) {
  const [mode, setMode] = useState<Mode>('command');
  const [format, setFormat] = useState<KvReplyFormat>('json');
  const info = useBridgeQuery('kv.info', { profileId: profile.id });
  // The server's COMMAND DOCS (~110 KB) is asked for when the command line is first used, not when the
  // tab opens: main parses it in one go, and opening the Keys tab right after the workbench would wait
  // behind that (up to a third of its first screen on a loaded machine). The bundled table answers until then.
  const [docsWanted, setDocsWanted] = useState(false);
  const docsQuery = useBridgeQuery(
    'kv.commandDocs',
    { profileId: profile.id },
    { staleTime: Infinity, enabled: docsWanted },
  );
  const docs = useMemo(() => {
    const map = new Map<string, CommandDoc>(BUNDLED_COMMAND_DOCS);
    for (const doc of docsQuery.data?.docs ?? []) map.set(doc.name, doc);
    return map;
  }, [docsQuery.data]);
  const readOnlyToken = info.data?.access === 'readOnly';
  return (
    <div className="page-body kv-workbench">
      <div className="toolbar">
        <Segmented
          label="Mode"
          value={mode}
          onChange={setMode}
          options={{ command: 'Command', pipeline: 'Pipeline', transaction: 'Transaction' }}
        />
        <Segmented label="Reply format" value={format} onChange={setFormat} options={FORMAT_OPTIONS} />
        <span className="spacer" />
        {readOnlyToken ? <Badge tone="warning">read-only token</Badge> : null}
        {profile.readOnly ? <Badge tone="warning">read-only profile</Badge> : null}
        <span className="muted small">
          docs: {docsQuery.data?.source === 'server' ? 'COMMAND DOCS from the server' : 'bundled table'}
        </span>
      </div>
      {mode === 'command' ? (
        <CommandConsole profile={profile} format={format} docs={docs} onUse={() => setDocsWanted(true)} />
      ) : (
        <PipelineEditor key={mode} profile={profile} mode={mode} format={format} />
      )}
    </div>
  );
}

function CommandConsole({
  profile,
  format,
  docs,
  onUse,
}: {
  profile: ProfileView;
  format: KvReplyFormat;
  docs: ReadonlyMap<string, CommandDoc>;
  /** The command line got focus: time to fetch the server's docs. */
  onUse: () => void;
}) {
  const bridge = useBridge();
  const queryClient = useQueryClient();
  const history = useBridgeQuery('kv.history.list', { profileId: profile.id });
  const [text, setText] = useState('');
  const [caret, setCaret] = useState(0);
  const [running, setRunning] = useState(false);
  const [problem, setProblem] = useState<string>();
  const [outputs, setOutputs] = useState<OutputEntry[]>([]);
  const [historyIndex, setHistoryIndex] = useState(-1);
  const [suggestIndex, setSuggestIndex] = useState(0);
  const nextId = useRef(1);
  const inputRef = useRef<HTMLTextAreaElement>(null);

  const word = commandWordAt(text, caret);
  const suggestions = word && word.word ? completeCommandName(word.word, docs, 8) : [];
  const showSuggestions =
    suggestions.length > 0 &&
    !(suggestions.length === 1 && suggestions[0]!.name === word!.word.toUpperCase());
  const currentName = commandNameAt(text, caret);
  const currentDoc = currentName ? docs.get(currentName.toUpperCase()) : undefined;
  const historyTexts = (history.data ?? [])
    .filter((entry) => entry.kind === 'command')
    .map((entry) => entry.text);

  const complete = (doc: CommandDoc) => {
    if (!word) return;
    const next = text.slice(0, word.start) + doc.name + ' ' + text.slice(caret);
    const at = word.start + doc.name.length + 1;
    setText(next);
    setCaret(at);
    setSuggestIndex(0);
    requestAnimationFrame(() => inputRef.current?.setSelectionRange(at, at));
  };

  const run = async () => {
    const parsed = parseScript(text);
    if (!parsed.ok) return setProblem(parsed.error);
    if (parsed.commands.length === 0) return setProblem('Type a command, e.g. GET mykey');
    setProblem(undefined);
    if (!(await askBeforeDanger(profile, parsed.commands))) return;
    setRunning(true);
    const id = nextId.current++;
    try {
      const reply = await bridge.call('kv.run', {
        profileId: profile.id,
        commands: parsed.commands,
        format,
        text: text.trim(),
        confirmed: true,
      });
      setOutputs((old) =>
        [{ id, text: text.trim(), format, results: reply.results, skipped: reply.skipped }, ...old].slice(
          0,
          100,
        ),
      );
      setText('');
      setHistoryIndex(-1);
    } catch (error) {
      setOutputs((old) => [
        {
          id,
          text: text.trim(),
          format,
          results: [],
          skipped: 0,
          error: errorMessage(error),
          failure: error,
        },
        ...old,
      ]);
    } finally {
      setRunning(false);
      void queryClient.invalidateQueries({
        queryKey: bridgeKey('kv.history.list', { profileId: profile.id }),
      });
    }
  };

  const onKeyDown = (event: React.KeyboardEvent<HTMLTextAreaElement>) => {
    const target = event.currentTarget;
    if (showSuggestions && (event.key === 'Tab' || (event.key === 'Enter' && suggestIndex > 0))) {
      event.preventDefault();
      complete(suggestions[suggestIndex] ?? suggestions[0]!);
      return;
    }
    if (showSuggestions && (event.key === 'ArrowDown' || event.key === 'ArrowUp') && !event.altKey) {
      event.preventDefault();
      const delta = event.key === 'ArrowDown' ? 1 : -1;
      setSuggestIndex((i) => (i + delta + suggestions.length) % suggestions.length);
      return;
    }
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      void run();
      return;
    }
    const atTop = !target.value.slice(0, target.selectionStart).includes('\n');
    const atBottom = !target.value.slice(target.selectionEnd).includes('\n');
    if (event.key === 'ArrowUp' && atTop && historyTexts.length) {
      event.preventDefault();
      const index = Math.min(historyIndex + 1, historyTexts.length - 1);
      setHistoryIndex(index);
      setText(historyTexts[index]!);
    } else if (event.key === 'ArrowDown' && atBottom && historyIndex >= 0) {
      event.preventDefault();
      const index = historyIndex - 1;
      setHistoryIndex(index);
      setText(index >= 0 ? historyTexts[index]! : '');
    }
  };

  return (
    <div className="kv-console">
      <div className="kv-console-main">
        <div className="kv-input-wrap">
          <textarea
            ref={inputRef}
            className="textarea input-mono kv-command-input"
            aria-label="Command"
            placeholder="GET mykey   (Enter runs, Shift+Enter adds a line, Tab completes, ↑ history)"
            rows={Math.min(10, Math.max(2, text.split('\n').length))}
            value={text}
            spellCheck={false}
            autoComplete="off"
            onFocus={onUse}
            onChange={(event) => {
              setText(event.target.value);
              setCaret(event.target.selectionStart);
              setSuggestIndex(0);
            }}
            onSelect={(event) => setCaret(event.currentTarget.selectionStart)}
            onKeyDown={onKeyDown}
          />
          {showSuggestions ? (
            <ul className="kv-suggestions" role="listbox" aria-label="Command suggestions">
              {suggestions.map((doc, index) => (
                <li
                  key={doc.name}
                  role="option"
                  aria-selected={index === suggestIndex}
                  onMouseDown={(event) => {
                    event.preventDefault();
                    complete(doc);
                  }}
                >
                  <strong>{doc.name}</strong> <span className="kv-doc-args">{doc.args}</span>
                  <span className="muted"> — {doc.summary}</span>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
        <div className="kv-doc-line" data-testid="command-doc">
          {currentDoc ? (
            <>
              <strong>{currentDoc.name}</strong> <span className="kv-doc-args">{currentDoc.args}</span>
              <span className="muted"> — {currentDoc.summary}</span>{' '}
              <Badge tone={currentDoc.write ? 'warning' : 'info'}>
                {currentDoc.write ? 'write' : 'read'}
              </Badge>
            </>
          ) : (
            <span className="muted">
              <Kbd>Enter</Kbd> runs · <Kbd>Shift+Enter</Kbd> new line (a script runs line by line) ·{' '}
              <Kbd>Tab</Kbd> completes · <Kbd>↑</Kbd>/<Kbd>↓</Kbd> history
            </span>
          )}
        </div>
        <div className="row">
          <Button variant="primary" busy={running} onClick={() => void run()}>
            Run
          </Button>
          {outputs.length ? (
            <Button variant="ghost" onClick={() => setOutputs([])}>
              Clear output
            </Button>
          ) : null}
        </div>
        {problem ? <Callout tone="danger" title={problem} /> : null}
        <div className="kv-outputs" role="region" aria-label="Results">
          {outputs.map((entry) => (
            <OutputBlock key={entry.id} entry={entry} />
          ))}
        </div>
      </div>
      <aside className="kv-history" aria-label="History">
        <div className="kv-history-head">
          <h2 className="section-title">History</h2>
          {historyTexts.length ? (
            <Button
              size="sm"
              variant="ghost"
              onClick={() =>
                void bridge.call('kv.history.clear', { profileId: profile.id }).then(() =>
                  queryClient.invalidateQueries({
                    queryKey: bridgeKey('kv.history.list', { profileId: profile.id }),
                  }),
                )
              }
            >
              Clear
            </Button>
          ) : null}
        </div>
        <ul className="kv-history-list">
          {(history.data ?? []).slice(0, 100).map((entry) => (
            <li key={entry.id}>
              <button
                type="button"
                className={entry.ok ? 'kv-history-item' : 'kv-history-item kv-history-failed'}
                title={`${entry.kind} · ${formatRelative(entry.at)}`}
                onClick={() => {
                  setText(entry.text);
                  inputRef.current?.focus();
                }}
              >
                {entry.kind !== 'command' ? <Badge>{entry.kind}</Badge> : null} {entry.text}
              </button>
            </li>
          ))}
          {history.data?.length === 0 ? (
            <li className="muted small">Commands you run show up here.</li>
          ) : null}
        </ul>
      </aside>
    </div>
  );
}

function OutputBlock({ entry }: { entry: OutputEntry }) {
  return (
    <section className="kv-output" data-testid="kv-output">
      {entry.error ? (
        <Callout tone="danger" title={entry.error}>
          <AccessHelp error={entry.failure} />
        </Callout>
      ) : null}
      {entry.results.map((result, index) => (
        <div
          key={index}
          className={result.ok ? 'kv-result' : 'kv-result kv-result-error'}
          data-testid="kv-result"
        >
          <div className="kv-result-head">
            <code className="kv-result-command">{result.args.join(' ')}</code>
            <span className="muted small" data-testid="kv-timing">
              {result.ms.toFixed(1)} ms
            </span>
          </div>
          {result.raw !== undefined ? (
            <RawView base64={result.raw} />
          ) : result.ok ? (
            <ReplyValue value={result.result} base64={entry.format === 'base64'} args={result.args} />
          ) : null}
          {!result.ok && result.error ? <div className="kv-error">(error) {result.error}</div> : null}
        </div>
      ))}
      {entry.skipped ? (
        <div className="muted small">
          {entry.skipped} later commands were not sent because the request failed.
        </div>
      ) : null}
    </section>
  );
}
