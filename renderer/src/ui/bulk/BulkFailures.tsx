// Every failure of a bulk job with the service's own text (a chunk that failed as a whole has no id).
import { ScrollTable } from '../ScrollTable';
export function BulkFailures({ failures }: { failures: { dlqId?: string; message: string }[] }) {
  if (failures.length === 0) return null;
  return (
    <ScrollTable label="Failures" columns={['DLQ id', 'Why']}>
      {failures.map((failure, index) => (
        <tr key={`${failure.dlqId ?? 'chunk'}-${index}`}>
          <td className="mono">{failure.dlqId ?? '(request)'}</td>
          <td className="cell-wrap">{failure.message}</td>
        </tr>
      ))}
    </ScrollTable>
  );
}
