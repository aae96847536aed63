// Placeholder until the live KV screens land (engineer kv-live owns this folder and replaces this file).
import { DatabaseIcon } from '../../../ui/icons';
import { EmptyState } from '../../../ui/misc';

export default function MonitorTab(_props: { params: string[] }) {
  return (
    <div className="page-body">
      <EmptyState icon={<DatabaseIcon />} title="Live monitor is on its way">
        A filterable live MONITOR with pause, a lines/s chart and export.
      </EmptyState>
    </div>
  );
}
