import { DatabaseIcon } from '../../ui/icons';
import { ComingSoon, LocalStackHint } from '../ComingSoon';

export default function KvArea() {
  return (
    <ComingSoon
      title="KV"
      headline="The KV browser and console are on their way"
      subtitle="Key-value store over HTTP"
      icon={<DatabaseIcon />}
      summary="Browse keys, run commands, pipelines and transactions, and watch a live monitor of every command."
      plans={[
        'Command console with history and completion',
        'Key browser with types, TTLs and values',
        'Live MONITOR and pub/sub',
      ]}
      today={<LocalStackHint service="kv" />}
    />
  );
}
