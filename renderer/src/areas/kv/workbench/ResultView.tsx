// A reply rendered by its shape: (nil), integers, text, pretty JSON, binary as hex, arrays as numbered
// tables, field/value pairs as two-column tables; and the raw RESP2 bytes as a hex dump beside what they
// decode to.
import { useMemo } from 'react';
import { toHex } from '../../../../../shared/kv/bytes';
import { base64ToBytes, hexDump, parseResp2, resp2ToPlain } from '../../../../../shared/kv/resp2';
import { type Shape, shapeOf } from './shape';

export function ReplyValue({
  value,
  base64,
  args,
}: {
  value: unknown;
  base64: boolean;
  args?: readonly string[];
}) {
  const shape = useMemo(() => shapeOf(value, { base64, args }), [value, base64, args]);
  return <ShapeView shape={shape} top />;
}

function ShapeView({ shape, top = false }: { shape: Shape; top?: boolean }) {
  switch (shape.kind) {
    case 'nil':
      return <span className="kvr-nil">(nil)</span>;
    case 'integer':
      return <span className="kvr-int">(integer) {shape.value}</span>;
    case 'text':
      return <span className="kvr-text">{top ? `"${shape.value}"` : shape.value}</span>;
    case 'json':
      return (
        <pre className="kvr-json" data-shape="json">
          {shape.value}
        </pre>
      );
    case 'binary':
      return (
        <pre className="kvr-hex" data-shape="binary" title={`${shape.bytes.length} bytes`}>
          {toHex(shape.bytes)}
        </pre>
      );
    case 'list':
      if (shape.items.length === 0) return <span className="kvr-nil">(empty array)</span>;
      return (
        <table className="kvr-table" data-shape="list">
          <tbody>
            {shape.items.slice(0, 1000).map((item, index) => (
              <tr key={index}>
                <td className="kvr-index">{index + 1}</td>
                <td>
                  <ShapeView shape={item} />
                </td>
              </tr>
            ))}
            {shape.items.length > 1000 ? (
              <tr>
                <td colSpan={2} className="muted">
                  … {shape.items.length - 1000} more
                </td>
              </tr>
            ) : null}
          </tbody>
        </table>
      );
    case 'map':
      return (
        <table className="kvr-table" data-shape="map">
          <tbody>
            {shape.entries.slice(0, 1000).map(([field, value], index) => (
              <tr key={index}>
                <th>
                  <ShapeView shape={field} />
                </th>
                <td>
                  <ShapeView shape={value} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      );
    case 'tree':
      return <pre className="kvr-json">{JSON.stringify(shape.value, null, 2)}</pre>;
  }
}

/** Raw RESP2: the bytes as a hex dump, and what they decode to. */
export function RawView({ base64 }: { base64: string }) {
  const { rows, decoded, error } = useMemo(() => {
    const bytes = base64ToBytes(base64);
    try {
      return {
        rows: hexDump(bytes),
        decoded: parseResp2(bytes).map((reply) => resp2ToPlain(reply.value)),
        error: '',
      };
    } catch (e) {
      return { rows: hexDump(bytes), decoded: [], error: e instanceof Error ? e.message : String(e) };
    }
  }, [base64]);
  return (
    <div className="kvr-raw" data-shape="resp2">
      <pre className="kvr-hexdump" role="region" aria-label="RESP2 bytes in hex" tabIndex={0}>
        {rows.map((row) => `${row.offset}  ${row.hex.padEnd(49)}  ${row.ascii}`).join('\n')}
      </pre>
      <pre className="kvr-json" role="region" aria-label="Decoded RESP2" tabIndex={0}>
        {error ? `not RESP2: ${error}` : JSON.stringify(decoded.length === 1 ? decoded[0] : decoded, null, 2)}
      </pre>
    </div>
  );
}
