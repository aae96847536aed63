// Placeholder until the live KV screens land (engineer kv-live owns this folder and replaces this file).
import { DatabaseIcon } from '../../../ui/icons';
import { EmptyState } from '../../../ui/misc';

export default function PubSubTab(_props: { params: string[] }) {
  return (
    <div className="page-body">
      <EmptyState icon={<DatabaseIcon />} title="Pub/Sub is on its way">
        Subscribe to channels and patterns, see messages as JSON, publish.
      </EmptyState>
    </div>
  );
}
