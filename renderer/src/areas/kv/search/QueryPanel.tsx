// An index's query form and results: the filter (JSON, checked as it is typed; names the schema lacks are
// pointed out), limit, order and the fields to return; Run (or Ctrl/⌘+Enter in the filter) asks the first
// page with its count, Load more the next by OFFSET, and a key opens in the key browser. What the service
// refuses (an unknown field, an operator the field's type lacks) shows in its own words. Aggregate mode runs
// the same filter with an aggregations object (JSON, checked as it is typed, an example from the schema) and
// shows each aggregation's result readably (AggregateResults.tsx). Either exports under its results
// (SearchExport.tsx): main runs it again and writes every match, or the aggregations' result.
import { type ReactNode, useId, useState } from 'react';
import type { KvSearchIndex, KvSearchRow } from '../../../../../shared/kv/search';
import { orderableFields, searchValueText } from '../../../../../shared/kv/search';
import type { ProfileView } from '../../../../../shared/profiles';
import { useBridgeQuery } from '../../../bridge/react';
import { useNav } from '../../../shell/nav';
import { Button } from '../../../ui/Button';
import { Field, Segmented, SelectField, TextField } from '../../../ui/fields';
import { plural } from '../../../ui/format';
import { Form } from '../../../ui/Form';
import { PlayIcon } from '../../../ui/icons';
import { InAppLink } from '../../../ui/InAppLink';
import { ListBody } from '../../../ui/list/ListBody';
import { usePagedBridgeQuery } from '../../../ui/list/use-paged-bridge-query';
import { Callout } from '../../../ui/misc';
import { AggregateResults } from './AggregateResults';
import { AggregateExport, QueryExport } from './SearchExport';
import {
  type AggregateInput,
  checkAggregateDraft,
  checkDraft,
  formatScore,
  initialDraft,
  type QueryDraft,
  type QueryInput,
  resultColumns,
} from './query-form';

export function QueryPanel({
  profile,
  index,
  definition,
}: {
  profile: ProfileView;
  index: string;
  definition: KvSearchIndex;
}) {
  const [draft, setDraft] = useState<QueryDraft>(() => initialDraft(definition));
  const [ran, setRan] = useState<QueryInput>();
  const check = checkDraft(profile.id, index, definition, draft);
  const set = (patch: Partial<QueryDraft>) => setDraft((old) => ({ ...old, ...patch }));
  const chosenId = useId();

  const results = usePagedBridgeQuery(
    'kv.search.query',
    ran ?? { profileId: profile.id, index, filter: '{}' },
    'rows',
    { enabled: ran !== undefined, staleTime: Infinity },
  );
  const run = () => {
    if (!check.input) return;
    // The same query again asks again: Run is also the way to refresh.
    if (ran && JSON.stringify(ran) === JSON.stringify(check.input)) results.reset();
    else setRan(check.input);
  };
  const orderable = orderableFields(definition.fields);

  const aggregateCheck = checkAggregateDraft(profile.id, index, definition, draft);
  const [ranAggregate, setRanAggregate] = useState<AggregateInput>();
  const aggregated = useBridgeQuery(
    'kv.search.aggregate',
    ranAggregate ?? { profileId: profile.id, index, filter: '{}', aggregations: '{}' },
    { enabled: ranAggregate !== undefined, staleTime: Infinity },
  );
  const runAggregate = () => {
    if (!aggregateCheck.input) return;
    if (ranAggregate && JSON.stringify(ranAggregate) === JSON.stringify(aggregateCheck.input))
      void aggregated.refetch();
    else setRanAggregate(aggregateCheck.input);
  };

  return (
    <div className="kv-search-main">
      <section className="card" aria-labelledby="kv-search-query-title">
        <div className="card-header">
          <h2 id="kv-search-query-title">Query</h2>
          <div className="kv-search-mode">
            <Segmented
              label="Mode"
              value={draft.mode}
              options={{ query: 'Documents', aggregate: 'Aggregate' }}
              onChange={(mode) => set({ mode })}
            />
          </div>
        </div>
        {draft.mode === 'aggregate' ? (
          <Form className="card-body stack kv-search-form" onSubmit={runAggregate}>
            <FilterField
              value={draft.filter}
              error={aggregateCheck.errors.filter}
              unknownFields={[]}
              onChange={(filter) => set({ filter })}
              onRun={runAggregate}
            />
            <Field
              label="Aggregations (JSON)"
              error={aggregateCheck.errors.aggregations}
              hint={
                aggregateCheck.unknownFields.length
                  ? `Not in this index’s schema: ${aggregateCheck.unknownFields.join(', ')} — the service will likely refuse it.`
                  : 'Named aggregations such as {"name": {"$terms": {"field": …}}}: $avg, $sum, $min, $max, $count, $cardinality, $stats, $extendedStats, $percentiles; buckets with $terms, $range, $histogram, $dateHistogram (each may nest $aggs) and $facet. Numeric, date and boolean fields need FAST. Over the documents the filter matches; Ctrl+Enter runs them.'
              }
            >
              {({ control }) => (
                <textarea
                  {...control}
                  className="textarea input-mono kv-search-filter"
                  rows={Math.min(14, Math.max(5, draft.aggregations.split('\n').length + 1))}
                  spellCheck={false}
                  value={draft.aggregations}
                  onChange={(event) => set({ aggregations: event.target.value })}
                  onKeyDown={(event) => {
                    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
                      event.preventDefault();
                      runAggregate();
                    }
                  }}
                />
              )}
            </Field>
            <div className="kv-search-options">
              <Button
                type="submit"
                variant="primary"
                className="kv-search-run"
                icon={<PlayIcon />}
                disabled={!aggregateCheck.input}
                busy={aggregated.isFetching}
              >
                Run
              </Button>
            </div>
          </Form>
        ) : (
          <Form className="card-body stack kv-search-form" onSubmit={run}>
            <FilterField
              value={draft.filter}
              error={check.errors.filter}
              unknownFields={check.unknownFields}
              onChange={(filter) => set({ filter })}
              onRun={run}
            />
            <div className="kv-search-options">
              <TextField
                label="Limit"
                className="kv-search-limit"
                inputMode="numeric"
                value={draft.limit}
                error={check.errors.limit}
                onChange={(event) => set({ limit: event.target.value })}
              />
              <SelectField
                label="Order by"
                value={draft.orderBy}
                onChange={(event) => set({ orderBy: event.target.value })}
              >
                <option value="">Score (the service’s order)</option>
                {orderable.map((field) => (
                  <option key={field.name} value={field.name}>
                    {field.name}
                  </option>
                ))}
              </SelectField>
              {draft.orderBy ? (
                <div className="field">
                  <span className="field-label" aria-hidden>
                    Direction
                  </span>
                  <Segmented
                    label="Direction"
                    value={draft.direction}
                    options={{ asc: 'Ascending', desc: 'Descending' }}
                    onChange={(direction) => set({ direction })}
                  />
                </div>
              ) : null}
              <div className="field">
                <span className="field-label" aria-hidden>
                  Return
                </span>
                <Segmented
                  label="Return"
                  value={draft.returns}
                  options={{ all: 'All fields', chosen: 'Chosen fields', keys: 'Keys only' }}
                  onChange={(returns) => set({ returns })}
                />
              </div>
              {draft.returns === 'chosen' ? (
                <fieldset
                  className="kv-search-chosen"
                  aria-describedby={check.errors.chosen ? chosenId : undefined}
                >
                  <legend className="field-label">Fields to return</legend>
                  {definition.fields.map((field) => (
                    <label key={field.name} className="kv-search-check">
                      <input
                        type="checkbox"
                        checked={draft.chosen.includes(field.name)}
                        onChange={(event) =>
                          set({
                            chosen: event.target.checked
                              ? [...draft.chosen, field.name]
                              : draft.chosen.filter((name) => name !== field.name),
                          })
                        }
                      />
                      <span className="mono">{field.name}</span>
                    </label>
                  ))}
                  {check.errors.chosen ? (
                    <span id={chosenId} className="field-error">
                      {check.errors.chosen}
                    </span>
                  ) : null}
                </fieldset>
              ) : null}
              <Button
                type="submit"
                variant="primary"
                className="kv-search-run"
                icon={<PlayIcon />}
                disabled={!check.input}
                busy={results.refreshing}
              >
                Run
              </Button>
            </div>
          </Form>
        )}
      </section>
      {draft.mode === 'aggregate' && ranAggregate ? (
        <AggregateResults query={aggregated}>
          {/* keyed by what ran: a new run's export starts without the last one's outcome */}
          <AggregateExport key={JSON.stringify(ranAggregate)} input={ranAggregate} />
        </AggregateResults>
      ) : null}
      {draft.mode === 'query' && ran ? (
        <Results
          definition={definition}
          orderedBy={ran.orderBy?.field}
          results={results}
          count={results.query.data?.pages[0]?.count}
          exporter={
            <QueryExport key={JSON.stringify(ran)} query={ran} count={results.query.data?.pages[0]?.count} />
          }
        />
      ) : null}
    </div>
  );
}

/** The filter's JSON, checked as it is typed; Ctrl/⌘+Enter runs. */
function FilterField({
  value,
  error,
  unknownFields,
  onChange,
  onRun,
}: {
  value: string;
  error: string | undefined;
  unknownFields: string[];
  onChange: (value: string) => void;
  onRun: () => void;
}) {
  return (
    <Field
      label="Filter (JSON)"
      error={error}
      hint={
        unknownFields.length
          ? `Not in this index’s schema: ${unknownFields.join(', ')} — the service will likely refuse it.`
          : 'Conditions such as {"field": {"$eq": …}}, $in, $gt/$lt, $fuzzy, $phrase, $smart; combine with $and, $or, $must, $should, $mustNot. Ctrl+Enter runs it.'
      }
    >
      {({ control }) => (
        <textarea
          {...control}
          className="textarea input-mono kv-search-filter"
          rows={Math.min(12, Math.max(4, value.split('\n').length + 1))}
          spellCheck={false}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
              event.preventDefault();
              onRun();
            }
          }}
        />
      )}
    </Field>
  );
}

function Results({
  definition,
  orderedBy,
  results,
  count,
  exporter,
}: {
  definition: KvSearchIndex;
  /** The field the shown results are ordered by (what ran, not the form's current choice). */
  orderedBy: string | undefined;
  results: ReturnType<typeof usePagedBridgeQuery<'kv.search.query', 'rows'>>;
  count: number | undefined;
  /** The export of every match (SearchExport.tsx), under the table. */
  exporter: ReactNode;
}) {
  const rows = results.items;
  return (
    <section className="card kv-search-results" aria-labelledby="kv-search-results-title">
      <div className="card-header">
        <h2 id="kv-search-results-title">Results</h2>
        {results.loaded && count !== undefined ? (
          <span className="muted" data-testid="search-count" aria-live="polite">
            {count === 1 ? '1 document matches' : `${count.toLocaleString()} documents match`}
          </span>
        ) : null}
      </div>
      <div className="card-body stack">
        <ListBody
          query={results.query}
          failure="The service refused the query:"
          empty={
            results.loaded && rows.length === 0 ? (
              <Callout tone="info" title="No document matches this filter." />
            ) : undefined
          }
        >
          <ResultTable definition={definition} orderedBy={orderedBy} rows={rows} />
          <div className="row">
            {results.hasMore ? (
              <Button size="sm" busy={results.loadingMore} onClick={results.loadMore}>
                Load more
              </Button>
            ) : null}
            <span className="muted" data-testid="search-shown">
              {count !== undefined
                ? `${rows.length.toLocaleString()} of ${plural(count, 'document')} shown`
                : `${plural(rows.length, 'document')} shown`}
            </span>
          </div>
          {rows.length > 0 ? exporter : null}
        </ListBody>
      </div>
    </section>
  );
}

function ResultTable({
  definition,
  orderedBy,
  rows,
}: {
  definition: KvSearchIndex;
  orderedBy: string | undefined;
  rows: readonly KvSearchRow[];
}) {
  const navigate = useNav((state) => state.navigate);
  const columns = resultColumns(definition, rows);
  return (
    <div className="kv-search-table-wrap">
      <table className="table kv-search-table" aria-label="Matching documents" data-testid="search-results">
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th
              scope="col"
              title={
                orderedBy === undefined
                  ? undefined
                  : `Ordered by ${orderedBy}, the service answers its value in the score’s place`
              }
            >
              {orderedBy === undefined ? (
                'Score'
              ) : (
                <>
                  Sort: <span className="mono">{orderedBy}</span>
                </>
              )}
            </th>
            {columns.map((name) => (
              <th key={name} scope="col" className="mono">
                {name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => {
            const values = new Map(row.fields);
            return (
              // Keys are unique within one query; a document that moved between pages may come twice.
              <tr key={`${row.key}\u0000${i}`} data-testid="search-row" data-key={row.key}>
                <td className="mono">
                  <InAppLink
                    href={`#/kv/keys/${encodeURIComponent(row.key)}`}
                    onOpen={() => navigate('kv', 'keys', row.key)}
                  >
                    {row.key}
                  </InAppLink>
                </td>
                <td className="mono nowrap">{formatScore(row.score, orderedBy)}</td>
                {columns.map((name) => {
                  const value = values.get(name);
                  const text = value === undefined ? '' : searchValueText(value);
                  return (
                    <td key={name} className="kv-search-value" title={text.length > 60 ? text : undefined}>
                      {text}
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
