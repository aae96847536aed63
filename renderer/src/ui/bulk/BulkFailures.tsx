// Every failure of a bulk job with the service's own text (a chunk that failed as a whole has no id).
import { TableHead } from '../TableHead';
export function BulkFailures({ failures }: { failures: { dlqId?: string; message: string }[] }) {
  if (failures.length === 0) return null;
  return (
    <div className="scroll-box">
      <table className="table table-compact" aria-label="Failures">
        <TableHead columns={['DLQ id', 'Why']} />
        <tbody>
          {failures.map((failure, index) => (
            <tr key={`${failure.dlqId ?? 'chunk'}-${index}`}>
              <td className="mono">{failure.dlqId ?? '(request)'}</td>
              <td className="cell-wrap">{failure.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
