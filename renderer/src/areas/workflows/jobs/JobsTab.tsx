// The job journal of this profile, kept by main: what ran, on which ids or filter, with which overrides,
// how far it got, the runs it created and its failures. An interrupted or cancelled job resumes from its
// cursor; the journal exports as JSON or CSV.
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { JobRecord } from '../../../../../shared/bridge/procedures/workflows/jobs';
import type { ProfileView } from '../../../../../shared/profiles';
import { errorMessage } from '../../../bridge/client';
import { useBridge, useBridgeQuery } from '../../../bridge/react';
import { ActiveService } from '../../../shell/ActiveService';
import { Button } from '../../../ui/Button';
import { ErrorCallout } from '../../../ui/ErrorCallout';
import { formatRelative, formatTime } from '../../../ui/format';
import { DownloadIcon, InboxIcon } from '../../../ui/icons';
import { Badge, EmptyState, Spinner } from '../../../ui/misc';
import { TableHead } from '../../../ui/TableHead';
import { toast } from '../../../ui/toast';
import { WriteButton } from '../../../ui/WriteButton';
import '../../../ui/tables.css';
import { BulkJobDialog } from '../dlq/BulkJobDialog';
import { describeRunOverrides } from '../dlq/overrides-draft';
import { downloadText } from '../run/RunDetail';

export default function JobsTab() {
  return <ActiveService>{(profile) => <Jobs profile={profile} />}</ActiveService>;
}

const STATUS_TONE: Record<JobRecord['status'], 'success' | 'warning' | 'danger' | 'info' | undefined> = {
  running: 'info',
  done: 'success',
  cancelled: 'warning',
  interrupted: 'warning',
  failed: 'danger',
};

function Jobs({ profile }: { profile: ProfileView }) {
  const bridge = useBridge();
  const queryClient = useQueryClient();
  const jobs = useBridgeQuery('workflows.jobs.list', { profileId: profile.id }, { refetchInterval: 3000 });
  const [resume, setResume] = useState<JobRecord | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const exportAs = async (format: 'json' | 'csv') => {
    try {
      const file = await bridge.call('workflows.jobs.export', { profileId: profile.id, format });
      downloadText(file.fileName, file.text, file.mimeType);
    } catch (error) {
      toast.error('Export failed', errorMessage(error));
    }
  };
  return (
    <div className="wf-tab">
      <div className="toolbar wf-toolbar">
        <span className="muted">
          Every bulk job of this profile, newest first — kept by the console, not the service.
        </span>
        <span className="toolbar-spacer" />
        <Button size="sm" icon={<DownloadIcon />} onClick={() => void exportAs('json')}>
          Export JSON
        </Button>
        <Button size="sm" icon={<DownloadIcon />} onClick={() => void exportAs('csv')}>
          Export CSV
        </Button>
      </div>
      <div className="wf-scroll">
        {jobs.error ? (
          <ErrorCallout error={jobs.error} />
        ) : !jobs.data ? (
          <Spinner />
        ) : jobs.data.length === 0 ? (
          <EmptyState icon={<InboxIcon />} title="No jobs yet">
            Restart, resume, delete or failure-callback jobs from DLQ triage are recorded here.
          </EmptyState>
        ) : (
          <table className="table wf-jobs" aria-label="Job journal">
            <TableHead columns={['Started', 'Action', 'Target', 'Status', 'Progress']} actions />
            <tbody>
              {jobs.data.map((job) => (
                <JobRow
                  key={job.id}
                  job={job}
                  open={open === job.id}
                  onToggle={() => setOpen(open === job.id ? null : job.id)}
                  onResume={() => setResume(job)}
                  profile={profile}
                />
              ))}
            </tbody>
          </table>
        )}
      </div>
      {resume ? (
        <BulkJobDialog
          profile={profile}
          resumeJobId={resume.id}
          request={{ action: resume.action, target: resume.target, description: resume.description }}
          onClose={() => setResume(null)}
          onChanged={() => {
            void queryClient.invalidateQueries({ queryKey: ['workflows.jobs.list'] });
            void queryClient.invalidateQueries({ queryKey: ['workflows.dlq.groups'] });
          }}
        />
      ) : null}
    </div>
  );
}

function JobRow({
  job,
  open,
  onToggle,
  onResume,
  profile,
}: {
  job: JobRecord;
  open: boolean;
  onToggle: () => void;
  onResume: () => void;
  profile: ProfileView;
}) {
  const overrides = describeRunOverrides(job.overrides);
  const resumable = job.status === 'interrupted' || job.status === 'cancelled' || job.status === 'failed';
  return (
    <>
      <tr data-testid="job-row" data-status={job.status}>
        <td title={formatTime(job.startedAt)}>{formatRelative(job.startedAt)}</td>
        <td>{job.action === 'callback' ? 'retry failure function' : job.action}</td>
        <td className="cell-wrap">
          {job.description}
          {overrides.length ? <div className="faint">overrides: {overrides.join(' · ')}</div> : null}
        </td>
        <td>
          <Badge tone={STATUS_TONE[job.status]}>{job.status}</Badge>
          {job.error ? <div className="faint">{job.error}</div> : null}
        </td>
        <td className="mono">
          {job.processed.toLocaleString()}/{job.total.toLocaleString()} · {job.succeeded.toLocaleString()} ok
          {job.failures.length ? ` · ${job.failures.length} failed` : ''}
        </td>
        <td className="row">
          {resumable ? (
            <WriteButton profile={profile} size="sm" variant="primary" onClick={onResume}>
              Resume
            </WriteButton>
          ) : null}
          <Button size="sm" variant="ghost" onClick={onToggle}>
            {open ? 'Hide' : 'Details'}
          </Button>
        </td>
      </tr>
      {open ? (
        <tr>
          <td colSpan={6}>
            <div className="wf-job-details">
              <div>
                <strong>Target:</strong>{' '}
                {'dlqIds' in job.target ? (
                  <span className="mono">{job.target.dlqIds.length} DLQ ids</span>
                ) : (
                  <span className="mono">{JSON.stringify(job.target.filters)}</span>
                )}
              </div>
              {job.cursor ? (
                <div>
                  <strong>Continues at:</strong> <span className="mono">{job.cursor}</span>
                </div>
              ) : null}
              {job.runs.length ? (
                <div>
                  <strong>Runs created ({job.runs.length}):</strong>{' '}
                  <span className="mono">
                    {job.runs
                      .slice(0, 50)
                      .map((run) => run.workflowRunId)
                      .join(', ')}
                  </span>
                  {job.runs.length > 50 ? ' …' : ''}
                </div>
              ) : null}
              {job.failures.length ? (
                <ul>
                  {job.failures.slice(0, 50).map((failure, index) => (
                    <li key={index}>
                      <span className="mono">{failure.dlqId ?? '(request)'}</span>: {failure.message}
                    </li>
                  ))}
                </ul>
              ) : null}
            </div>
          </td>
        </tr>
      ) : null}
    </>
  );
}
