// Queues: lag, parallelism and paused state (refreshed every few seconds), create or update, pause and
// resume, delete; enqueue to a queue in the composer; see a queue's messages in the logs.
import { useState } from 'react';
import type { Queue } from '../../../../../shared/messages/types';
import type { ProfileView } from '../../../../../shared/profiles';
import { errorMessage } from '../../../bridge/client';
import { useBridgeMutation, useBridgeQuery } from '../../../bridge/react';
import { ActiveService } from '../../../shell/ActiveService';
import { useNav } from '../../../shell/nav';
import { Button } from '../../../ui/Button';
import { confirmDanger } from '../../../ui/confirm-danger';
import { formatRelative, formatTime, plural } from '../../../ui/format';
import { PlusIcon, SendIcon } from '../../../ui/icons';
import { Badge, EmptyState } from '../../../ui/misc';
import { QueryView, RefreshButton } from '../../../ui/QueryView';
import { RemoveRowButton } from '../../../ui/RemoveRowButton';
import { TableCard } from '../../../ui/TableCard';
import { toast } from '../../../ui/toast';
import { WriteButton } from '../../../ui/WriteButton';
import '../../../ui/tables.css';
import { openLogs } from '../logs/log-filters';
import { QueueDialog } from './QueueDialog';
import './queues.css';
import { pollEvery } from '../../../bridge/polling';

export default function QueuesTab(_props: { params: string[] }) {
  return <ActiveService>{(profile) => <Queues profile={profile} />}</ActiveService>;
}

function Queues({ profile }: { profile: ProfileView }) {
  const navigate = useNav((state) => state.navigate);
  const queues = useBridgeQuery(
    'messages.queues.list',
    { profileId: profile.id },
    { refetchInterval: pollEvery(5000) },
  );
  const [editing, setEditing] = useState<Queue | 'new' | null>(null);
  const setPaused = useBridgeMutation('messages.queues.setPaused', {
    onSuccess: (queue) => toast.success(`${queue.name} ${queue.paused ? 'paused' : 'resumed'}`),
    onError: (error) => toast.error('Could not change the queue', errorMessage(error)),
  });
  const remove = useBridgeMutation('messages.queues.delete', {
    onSuccess: ({ deleted }) => toast.success(`Deleted ${deleted}`),
    onError: (error) => toast.error('Could not delete the queue', errorMessage(error)),
  });
  const askPause = async (queue: Queue) => {
    if (queue.paused) {
      setPaused.mutate({ profileId: profile.id, name: queue.name, paused: false });
      return;
    }
    const ok = await confirmDanger(profile, {
      title: `Pause ${queue.name}?`,
      body: 'The queue keeps accepting messages but delivers none until you resume it; then it continues from the oldest undelivered message.',
      confirmLabel: 'Pause queue',
      typeOnProd: queue.name,
    });
    if (ok) setPaused.mutate({ profileId: profile.id, name: queue.name, paused: true });
  };
  const askDelete = async (queue: Queue) => {
    const ok = await confirmDanger(profile, {
      title: `Delete queue ${queue.name}?`,
      body: (
        <>
          The queue is removed
          {queue.lag > 0 ? (
            <>
              {' '}
              with <strong>{plural(queue.lag, 'message')} not yet delivered</strong>
            </>
          ) : null}
          . Enqueueing to the same name later creates a new queue with the default parallelism.
        </>
      ),
      confirmLabel: 'Delete queue',
      typeOnProd: queue.name,
    });
    if (ok) remove.mutate({ profileId: profile.id, name: queue.name });
  };

  return (
    <div className="page-body">
      <div className="stack" style={{ gap: 14 }}>
        <div className="row">
          <p className="muted">
            Queues deliver their messages in order, {`"parallelism"`} at a time. Lag is the number of messages
            not yet delivered.
          </p>
          <span className="spacer" />
          <RefreshButton query={queues} title="Refresh (also every 5 s)" />
          <WriteButton
            profile={profile}
            variant="primary"
            icon={<PlusIcon />}
            onClick={() => setEditing('new')}
          >
            New queue
          </WriteButton>
        </div>
        <QueryView query={queues} failure="Could not load queues.">
          {(list) =>
            list.length === 0 ? (
              <EmptyState icon={<SendIcon />} title="No queues yet">
                <p>
                  Create one here, or enqueue a message to a new name and the service creates it with
                  parallelism 1.
                </p>
              </EmptyState>
            ) : (
              <TableCard label="Queues" columns={['Name', 'State', 'Lag', 'Parallelism', 'Updated']} actions>
                {list.map((queue) => (
                  <tr key={queue.name} data-testid={`queue-${queue.name}`}>
                    <td className="mono">
                      <strong>{queue.name}</strong>
                    </td>
                    <td>
                      {queue.paused ? (
                        <Badge tone="warning">Paused</Badge>
                      ) : (
                        <Badge tone="success">Active</Badge>
                      )}
                    </td>
                    <td className="num" aria-label="Lag">
                      <span className={queue.lag > 0 ? 'queue-lag has-lag' : 'queue-lag'}>
                        {queue.lag.toLocaleString()}
                      </span>
                    </td>
                    <td className="num">{queue.parallelism}</td>
                    <td title={formatTime(queue.updatedAt)}>{formatRelative(queue.updatedAt)}</td>
                    <td className="cell-actions">
                      <div className="row queue-actions">
                        <WriteButton
                          profile={profile}
                          size="sm"
                          disabled={setPaused.isPending}
                          onClick={() => void askPause(queue)}
                        >
                          {queue.paused ? 'Resume' : 'Pause'}
                        </WriteButton>
                        <WriteButton profile={profile} size="sm" onClick={() => setEditing(queue)}>
                          Edit
                        </WriteButton>
                        <WriteButton
                          profile={profile}
                          size="sm"
                          icon={<SendIcon />}
                          title="Enqueue a message"
                          onClick={() => navigate('messages', 'compose', 'queue', queue.name)}
                        >
                          Enqueue
                        </WriteButton>
                        <Button size="sm" variant="ghost" onClick={() => openLogs({ queueName: queue.name })}>
                          Logs
                        </Button>
                        <RemoveRowButton
                          profile={profile}
                          label={`Delete ${queue.name}`}
                          title="Delete queue"
                          onClick={() => void askDelete(queue)}
                        />
                      </div>
                    </td>
                  </tr>
                ))}
              </TableCard>
            )
          }
        </QueryView>
      </div>
      {editing ? (
        <QueueDialog
          profile={profile}
          queue={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </div>
  );
}
