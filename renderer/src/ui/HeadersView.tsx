// A read-only table of HTTP headers as the service reports them ({name: [values]}).
import './body-view.css';
import type { HeaderMap } from '../../../shared/messages/types';

export function HeadersView({ headers, empty = 'No headers' }: { headers?: HeaderMap; empty?: string }) {
  const entries = Object.entries(headers ?? {}).sort(([a], [b]) => a.localeCompare(b));
  if (entries.length === 0) return <p className="faint">{empty}</p>;
  return (
    <dl className="headers-view">
      {entries.map(([name, values]) =>
        values.map((value, index) => (
          <div key={`${name}-${index}`} className="headers-view-row">
            <dt className="mono">{name}</dt>
            <dd className="mono">{value}</dd>
          </div>
        )),
      )}
    </dl>
  );
}
