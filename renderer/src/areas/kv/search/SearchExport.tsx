// The Search tab's exports, as the monitor's: the page asks main, main runs the query (or the
// aggregations) again itself, pages through every match it can and writes the file where the front door
// puts files (a save dialog in the desktop app, the private exports folder in the browser host, with an
// optional file name). The page never names a path. A query matching more than the service pages to (OFFSET
// at most 10,000) exports its first SEARCH_EXPORT_MAX documents, and says so before and after.
import { type ReactNode, useState } from 'react';
import { SEARCH_EXPORT_MAX } from '../../../../../shared/kv/search';
import { errorMessage } from '../../../bridge/client';
import { useBridgeMutation, useBridgeQuery } from '../../../bridge/react';
import { Button } from '../../../ui/Button';
import { Segmented } from '../../../ui/fields';
import { Form } from '../../../ui/Form';
import { plural } from '../../../ui/format';
import { DownloadIcon } from '../../../ui/icons';
import { ToolbarInput } from '../../../ui/ToolbarInput';
import type { AggregateInput, QueryInput } from './query-form';

/** Where main writes (app.info): the folder's name input only when it is a folder. */
function useSaving() {
  return useBridgeQuery('app.info', {}, { staleTime: Infinity }).data?.fileSaving;
}

/** The optional file name, asked only when main writes into a folder (a save dialog asks for it otherwise). */
function FileNameInput({ value, onChange }: { value: string; onChange: (name: string) => void }) {
  const saving = useSaving();
  return saving?.kind === 'folder' ? (
    <ToolbarInput
      label="Export file name"
      placeholder={`File name (optional), written to ${saving.folder}`}
      value={value}
      onChange={onChange}
    />
  ) : null;
}

/** An export's outcome beside its button: where it was saved, a closed save dialog, or main's refusal. */
function ExportOutcome<Saved extends { path: string }>({
  exporter,
  saved,
}: {
  exporter: {
    isSuccess: boolean;
    isError: boolean;
    data: Saved | { canceled: true } | undefined;
    error: unknown;
  };
  saved: (saved: Saved) => ReactNode;
}) {
  const data = exporter.data;
  if (exporter.isSuccess && data) {
    return (
      <span data-testid="search-export-result" aria-live="polite">
        {'canceled' in data ? 'Not saved: the save dialog was closed.' : saved(data)}
      </span>
    );
  }
  return exporter.isError ? (
    <span className="kv-search-export-error" role="alert">
      {errorMessage(exporter.error)}
    </span>
  ) : null;
}

export function QueryExport({ query, count }: { query: QueryInput; count: number | undefined }) {
  const [format, setFormat] = useState<'json' | 'csv'>('csv');
  const [name, setName] = useState('');
  const exporter = useBridgeMutation('kv.search.export');
  const capped = count !== undefined && count > SEARCH_EXPORT_MAX;
  const { limit: _limit, ...asked } = query;
  return (
    <Form
      className="toolbar kv-search-export"
      onSubmit={() => exporter.mutate({ ...asked, format, suggestedName: name.trim() || undefined })}
    >
      <Segmented
        label="Export format"
        value={format}
        options={{ csv: 'CSV', json: 'JSON' }}
        onChange={setFormat}
      />
      <FileNameInput value={name} onChange={setName} />
      <Button
        size="sm"
        type="submit"
        icon={<DownloadIcon />}
        busy={exporter.isPending}
        disabled={count === 0}
      >
        {count === undefined
          ? 'Export all matches'
          : capped
            ? `Export the first ${SEARCH_EXPORT_MAX.toLocaleString()}`
            : `Export ${plural(count, 'document')}`}
      </Button>
      {capped && !exporter.isSuccess ? (
        <span className="muted" data-testid="search-export-cap">
          The service pages no further than OFFSET 10,000: an export holds the first{' '}
          {SEARCH_EXPORT_MAX.toLocaleString()} of {count.toLocaleString()}.
        </span>
      ) : null}
      <ExportOutcome
        exporter={exporter}
        saved={(saved) => (
          <>
            Saved {plural(saved.documents, 'document')}
            {saved.capped ? ` (the first of ${saved.count.toLocaleString()})` : ''} to{' '}
            <code>{saved.path}</code>
          </>
        )}
      />
    </Form>
  );
}

export function AggregateExport({ input }: { input: AggregateInput }) {
  const [name, setName] = useState('');
  const exporter = useBridgeMutation('kv.search.aggregate.export');
  return (
    <Form
      className="toolbar kv-search-export"
      onSubmit={() => exporter.mutate({ ...input, suggestedName: name.trim() || undefined })}
    >
      <FileNameInput value={name} onChange={setName} />
      <Button size="sm" type="submit" icon={<DownloadIcon />} busy={exporter.isPending}>
        Export as JSON
      </Button>
      <ExportOutcome
        exporter={exporter}
        saved={(saved) => (
          <>
            Saved to <code>{saved.path}</code>
          </>
        )}
      />
    </Form>
  );
}
