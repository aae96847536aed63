// Aggregate mode's results: each aggregation under its name, read as the shape it has — metrics (a value,
// $stats' count/min/max/…, percentiles) as a small table of names and values; buckets ($terms, $range,
// $histogram) as a table of key, docCount and the values nested in each bucket, with what the result says
// besides (sumOtherDocCount …); anything else ($facet's tree) as formatted JSON. A refusal shows the
// service's own words.
import type { ReactNode } from 'react';
import type { BridgeError } from '../../../../../shared/bridge/errors';
import {
  type AggregateView,
  aggregateView,
  type KvAggregateResult,
} from '../../../../../shared/kv/search-aggregate';
import { Callout } from '../../../ui/misc';
import { QueryView } from '../../../ui/QueryView';
import type { WaitedQuery } from '../../../ui/Waiting';

export function AggregateResults({
  query,
  children,
}: {
  query: WaitedQuery & { data: KvAggregateResult | undefined; error: BridgeError | null };
  /** Under a result (its export). */
  children?: ReactNode;
}) {
  return (
    <section className="card kv-search-results" aria-labelledby="kv-search-aggregations-title">
      <div className="card-header">
        <h2 id="kv-search-aggregations-title">Aggregations</h2>
      </div>
      <div className="card-body stack" data-testid="search-aggregations">
        <QueryView query={query} failure="The service refused the aggregation:">
          {(result) =>
            result.aggregations.length === 0 ? (
              <Callout tone="info" title="The service answered no aggregation." />
            ) : (
              <>
                {result.aggregations.map(([name, node]) => (
                  <Aggregation key={name} name={name} view={aggregateView(node)} />
                ))}
                {children}
              </>
            )
          }
        </QueryView>
      </div>
    </section>
  );
}

function Aggregation({ name, view }: { name: string; view: AggregateView }) {
  const titleId = `kv-search-aggregation-${name.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  return (
    <div className="kv-search-aggregation" data-testid="search-aggregation" data-name={name}>
      <h3 id={titleId} className="section-title mono">
        {name}
      </h3>
      {view.kind === 'metrics' ? (
        <table className="table kv-search-metrics" aria-labelledby={titleId}>
          <thead>
            <tr>
              <th scope="col">Metric</th>
              <th scope="col" className="num">
                Value
              </th>
            </tr>
          </thead>
          <tbody>
            {view.rows.map(([metric, value]) => (
              <tr key={metric}>
                <th scope="row" className="mono">
                  {metric}
                </th>
                <td className="mono num">{formatNumber(value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : view.kind === 'buckets' ? (
        <>
          {view.buckets.length === 0 ? (
            <p className="muted">No buckets: no document matched with a value for this field.</p>
          ) : (
            <div className="kv-search-table-wrap">
              <table className="table kv-search-buckets" aria-labelledby={titleId}>
                <thead>
                  <tr>
                    <th scope="col">Key</th>
                    <th scope="col" className="num mono">
                      docCount
                    </th>
                    {view.columns.map((column) => (
                      <th key={column} scope="col" className="num mono">
                        {column}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {view.buckets.map((bucket, i) => (
                    <tr key={`${bucket.key}\u0000${i}`} data-testid="search-bucket" data-key={bucket.key}>
                      <th scope="row" className="mono">
                        {bucket.key}
                      </th>
                      <td className="mono num">{formatNumber(bucket.docCount)}</td>
                      {view.columns.map((column) => (
                        <td key={column} className="mono num kv-search-value">
                          {formatNumber(bucket.values.get(column) ?? '')}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {view.extras.length ? (
            <p className="muted mono kv-search-extras">
              {view.extras.map(([key, value]) => `${key}: ${value}`).join(' · ')}
            </p>
          ) : null}
        </>
      ) : (
        <pre className="kv-search-json" tabIndex={0}>
          {view.text}
        </pre>
      )}
    </div>
  );
}

/** A number to at most six significant decimals (averages carry many more); anything else as it is. */
function formatNumber(value: string | number | null): string {
  if (value === null) return '—';
  const number = typeof value === 'number' ? value : value.trim() === '' ? NaN : Number(value);
  if (!Number.isFinite(number)) return String(value);
  return Number.isInteger(number) ? number.toLocaleString('en-US') : String(Number(number.toPrecision(6)));
}
