// Pipeline and transaction editor: rows of commands sent as one `/pipeline` or `/multi-exec` request, each
// row's result or error shown in place; "Paste a list" turns one command per line into rows.
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { KvPipelineResult, KvReplyFormat } from '../../../../../shared/bridge/procedures/kv/workbench';
import type { ProfileView } from '../../../../../shared/profiles';
import { bridgeKey, useBridge } from '../../../bridge/react';
import { Button } from '../../../ui/Button';
import { FormDialog } from '../../../ui/FormDialog';
import { TextareaField } from '../../../ui/fields';
import { PlusIcon } from '../../../ui/icons';
import { ErrorCallout } from '../../../ui/ErrorCallout';
import { Callout } from '../../../ui/misc';
import { askBeforeDanger } from '../kv-safety';
import { RawView, ReplyValue } from './ResultView';
import { parseScript } from './script';
import { plural } from '../../../ui/format';
import { RemoveRowButton } from '../../../ui/RemoveRowButton';

export function PipelineEditor({
  profile,
  mode,
  format,
}: {
  profile: ProfileView;
  mode: 'pipeline' | 'transaction';
  format: KvReplyFormat;
}) {
  const bridge = useBridge();
  const queryClient = useQueryClient();
  const [rows, setRows] = useState<string[]>(['', '']);
  const [result, setResult] = useState<{
    reply: KvPipelineResult;
    rows: string[][];
    format: KvReplyFormat;
  }>();
  /** Why the rows cannot be sent as typed (nothing was asked of the service). */
  const [problem, setProblem] = useState<string>();
  /** The request failed as a whole (a refused token, the service down): shown with what to do. */
  const [failure, setFailure] = useState<unknown>();
  const [running, setRunning] = useState(false);
  const [pasting, setPasting] = useState(false);

  const setRow = (index: number, value: string) => {
    setRows((old) => old.map((row, i) => (i === index ? value : row)));
    setResult(undefined);
  };

  const run = async () => {
    const filled = rows.map((row) => row.trim()).filter(Boolean);
    const parsed = parseScript(filled.join('\n'));
    if (!parsed.ok) return setProblem(parsed.error.replace(/^line/, 'row'));
    if (parsed.commands.length === 0) return setProblem('Add at least one command.');
    setProblem(undefined);
    setFailure(undefined);
    if (!(await askBeforeDanger(profile, parsed.commands))) return;
    setRunning(true);
    try {
      const reply = await bridge.call('kv.pipeline', {
        profileId: profile.id,
        mode,
        rows: parsed.commands,
        format,
        text: filled.join('\n'),
        confirmed: true,
      });
      setRows(filled);
      setResult({ reply, rows: parsed.commands, format });
    } catch (error) {
      setFailure(error);
    } finally {
      setRunning(false);
      void queryClient.invalidateQueries({
        queryKey: bridgeKey('kv.history.list', { profileId: profile.id }),
      });
    }
  };

  const entries = result && 'entries' in result.reply ? result.reply.entries : undefined;
  return (
    <div className="kv-pipeline">
      <p className="muted small">
        {mode === 'pipeline'
          ? 'Rows run in order as one /pipeline request, not atomically: a failing row does not stop the others.'
          : 'Rows run atomically as one /multi-exec request. A failing row shows its error in place and the others still run; a refused transaction runs nothing.'}
        {mode === 'transaction' && format === 'resp2' ? ' Transactions always answer JSON.' : null}
      </p>
      <ol
        className="kv-pipeline-rows"
        aria-label={mode === 'pipeline' ? 'Pipeline rows' : 'Transaction rows'}
      >
        {rows.map((row, index) => {
          const entry = entries?.[index];
          return (
            <li key={index} className="kv-pipeline-row" data-testid="pipeline-row">
              <span className="kvr-index">{index + 1}</span>
              <input
                className="input input-mono"
                aria-label={`Row ${index + 1}`}
                value={row}
                placeholder={index === 0 ? 'SET key value' : 'GET key'}
                spellCheck={false}
                onChange={(event) => setRow(index, event.target.value)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) void run();
                  else if (event.key === 'Enter')
                    setRows((old) => [...old.slice(0, index + 1), '', ...old.slice(index + 1)]);
                }}
              />
              <RemoveRowButton
                label={`Remove row ${index + 1}`}
                disabled={rows.length === 1}
                onClick={() => setRows((old) => old.filter((_, i) => i !== index))}
              />
              <div className="kv-pipeline-result" data-testid="row-result">
                {entry === undefined ? null : entry.error !== undefined ? (
                  <span className="kv-error">(error) {entry.error}</span>
                ) : (
                  <ReplyValue
                    value={entry.result}
                    base64={result!.format === 'base64'}
                    args={result!.rows[index]}
                  />
                )}
              </div>
            </li>
          );
        })}
      </ol>
      <div className="row">
        <Button icon={<PlusIcon />} onClick={() => setRows((old) => [...old, ''])}>
          Add row
        </Button>
        <Button onClick={() => setPasting(true)}>Paste a list</Button>
        <span className="spacer" />
        {result ? (
          <span className="muted small">{result.reply.ms.toFixed(1)} ms for the whole request</span>
        ) : null}
        <Button variant="primary" busy={running} onClick={() => void run()}>
          {mode === 'pipeline' ? 'Run pipeline' : 'Run transaction'}
        </Button>
      </div>
      {problem ? <Callout tone="danger" title={problem} /> : null}
      <ErrorCallout
        error={failure}
        title={mode === 'pipeline' ? 'The pipeline failed.' : 'The transaction failed.'}
      />
      {result && 'discarded' in result.reply ? (
        <Callout tone="danger" title="The transaction was discarded; nothing ran.">
          {result.reply.discarded}
        </Callout>
      ) : null}
      {result && 'raw' in result.reply && result.reply.raw ? (
        <details className="kv-raw-details" open>
          <summary>Raw RESP2 reply</summary>
          <RawView base64={result.reply.raw} />
        </details>
      ) : null}
      {pasting ? (
        <PasteDialog
          onClose={() => setPasting(false)}
          onPaste={(lines) => {
            setRows(lines);
            setResult(undefined);
            setPasting(false);
          }}
        />
      ) : null}
    </div>
  );
}

function PasteDialog({ onClose, onPaste }: { onClose: () => void; onPaste: (lines: string[]) => void }) {
  const [text, setText] = useState('');
  const parsed = parseScript(text);
  return (
    <FormDialog
      onClose={onClose}
      title="Paste a list of commands"
      submitLabel={parsed.ok ? `Use ${plural(parsed.commands.length, 'row')}` : 'Use rows'}
      disabled={!parsed.ok || parsed.commands.length === 0}
      onSubmit={() => parsed.ok && onPaste(parsed.lines)}
    >
      <TextareaField
        label="One command per line (blank lines and # comments are skipped)"
        className="input-mono"
        rows={10}
        value={text}
        autoFocus
        spellCheck={false}
        error={parsed.ok ? undefined : parsed.error}
        onChange={(event) => setText(event.target.value)}
      />
    </FormDialog>
  );
}
