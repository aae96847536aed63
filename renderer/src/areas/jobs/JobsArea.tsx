// Jobs (#/jobs): the journal of the bulk work of every service and profile, kept by main — what ran, on
// what, with which overrides, how far it got, what it created and what failed. A job cut short (cancelled,
// given up, or interrupted by a console exit) resumes from where it stopped, in the same job dialog as
// any other job. A job that waited for its service (an outage, a 5xx, a 429) says so under its status.
// The journal exports as JSON or CSV to where main saves files (never a path the page picks).
import { useState } from 'react';
import type { JobRecord, JobStatus } from '../../../../shared/bridge/job';
import type { JobListing } from '../../../../shared/bridge/procedures/jobs';
import type { ProfileView } from '../../../../shared/profiles';
import { errorMessage } from '../../bridge/client';
import { pollEvery } from '../../bridge/polling';
import { useBridge, useBridgeMutation, useBridgeQuery } from '../../bridge/react';
import { PageHeader } from '../../shell/PageHeader';
import { useProfiles } from '../../shell/data';
import { Button } from '../../ui/Button';
import { confirm } from '../../ui/confirm';
import { ErrorCallout } from '../../ui/ErrorCallout';
import { formatRelative, formatTime, plural } from '../../ui/format';
import { DownloadIcon, InboxIcon } from '../../ui/icons';
import { JobDialog } from '../../ui/job/JobDialog';
import { describeOverrides } from '../../ui/job/overrides-draft';
import { Badge, EmptyState, Spinner } from '../../ui/misc';
import '../../ui/tables.css';
import { TableHead } from '../../ui/TableHead';
import { toast } from '../../ui/toast';
import { WriteButton } from '../../ui/WriteButton';
import './jobs.css';

const STATUS_TONE: Record<JobStatus, 'success' | 'warning' | 'danger' | 'info'> = {
  running: 'info',
  done: 'success',
  cancelled: 'warning',
  interrupted: 'warning',
  failed: 'danger',
};

const SERVICE_LABEL: Record<JobRecord['service'], string> = {
  messages: 'Messages',
  workflows: 'Workflows',
  kv: 'KV',
};

export default function JobsArea() {
  const bridge = useBridge();
  const profiles = useProfiles();
  const jobs = useBridgeQuery(
    'jobs.list',
    {},
    // While a job runs elsewhere (another window), its progress shows here too.
    {
      refetchInterval: pollEvery((query) =>
        query.state.data?.some((job) => job.status === 'running') ? 2000 : false,
      ),
    },
  );
  const [open, setOpen] = useState<string | null>(null);
  const [resume, setResume] = useState<{ job: JobListing; profile: ProfileView } | null>(null);
  const clear = useBridgeMutation('jobs.clear', {
    onSuccess: ({ removed }) => toast.success(`${plural(removed, 'job')} removed from the journal`),
    onError: (error) => toast.error('Could not clear the journal', errorMessage(error)),
  });
  const exportAs = async (format: 'json' | 'csv') => {
    try {
      const saved = await bridge.call('jobs.export', { format });
      if ('path' in saved) toast.success(`${plural(saved.jobs, 'job')} exported`, saved.path);
    } catch (error) {
      toast.error('Export failed', errorMessage(error));
    }
  };
  const askClear = async () => {
    const ok = await confirm({
      title: 'Clear the finished jobs?',
      body: 'Every job that is not running leaves the journal, with what it recorded. Export it first to keep a copy.',
      confirmLabel: 'Clear finished jobs',
      danger: true,
    });
    if (ok) clear.mutate({});
  };
  const profileOf = (job: JobListing) => profiles.data?.profiles.find((p) => p.id === job.profileId);
  const count = jobs.data?.length ?? 0;

  return (
    <>
      <PageHeader
        title="Jobs"
        subtitle="Bulk work of every service: what ran, how far it got — resume what was cut short"
        actions={
          <>
            {(['json', 'csv'] as const).map((format) => (
              <Button
                key={format}
                size="sm"
                icon={<DownloadIcon />}
                disabled={count === 0}
                onClick={() => void exportAs(format)}
              >
                Export {format.toUpperCase()}
              </Button>
            ))}
            <Button size="sm" disabled={count === 0} busy={clear.isPending} onClick={() => void askClear()}>
              Clear finished…
            </Button>
          </>
        }
      />
      <div className="page-body">
        {jobs.error ? (
          <ErrorCallout error={jobs.error} title="Could not read the journal." />
        ) : !jobs.data ? (
          <Spinner />
        ) : jobs.data.length === 0 ? (
          <EmptyState icon={<InboxIcon />} title="No jobs yet">
            Retrying or deleting DLQ entries, restarting failed runs, cancelling runs or messages, deleting
            keys by pattern — every bulk action is a job, and each one is recorded here.
          </EmptyState>
        ) : (
          <section className="card">
            <table className="table jobs-table" aria-label="Jobs">
              <TableHead columns={['Started', 'Profile', 'Job', 'Status', 'Progress']} actions />
              <tbody>
                {jobs.data.map((job) => (
                  <JobRow
                    key={job.id}
                    job={job}
                    profile={profileOf(job)}
                    open={open === job.id}
                    onToggle={() => setOpen(open === job.id ? null : job.id)}
                    onResume={(profile) => setResume({ job, profile })}
                  />
                ))}
              </tbody>
            </table>
          </section>
        )}
      </div>
      {resume ? (
        <ResumeDialog job={resume.job} profile={resume.profile} onClose={() => setResume(null)} />
      ) : null}
    </>
  );
}

function JobRow({
  job,
  profile,
  open,
  onToggle,
  onResume,
}: {
  job: JobListing;
  /** Undefined when the job's profile was deleted since. */
  profile: ProfileView | undefined;
  open: boolean;
  onToggle: () => void;
  onResume: (profile: ProfileView) => void;
}) {
  const resumable = job.status !== 'done' && job.status !== 'running';
  const overrides = describeOptions(job.options);
  return (
    <>
      <tr data-testid="job-row" data-status={job.status}>
        <td className="nowrap" title={formatTime(job.startedAt)}>
          {formatRelative(job.startedAt)}
        </td>
        <td>{profile?.name ?? job.profileName}</td>
        <td className="cell-wrap">
          <span className="jobs-what">
            <Badge>{SERVICE_LABEL[job.service]}</Badge> <strong>{actionText(job.action)}</strong>{' '}
            {job.description}
          </span>
          {overrides ? <div className="faint">overrides: {overrides}</div> : null}
        </td>
        <td>
          <Badge tone={STATUS_TONE[job.status]}>{job.status}</Badge>
          {job.error ? <div className="faint">{job.error}</div> : null}
          {job.waited ? (
            <div className="faint" title={job.waited.reason} data-testid="job-waited">
              {waitedText(job)}
            </div>
          ) : null}
        </td>
        <td className="mono nowrap">
          {job.processed.toLocaleString()}/{job.total.toLocaleString()} · {job.succeeded.toLocaleString()} ok
          {job.skipped ? ` · ${job.skipped.toLocaleString()} gone` : ''}
          {job.unconfirmed ? (
            <span
              data-testid="job-unconfirmed"
              title="Done by a request whose answer got lost (the service failed after acting): what they created is not listed."
            >
              {' '}
              · {job.unconfirmed.toLocaleString()} unconfirmed
            </span>
          ) : null}
          {job.failed ? ` · ${job.failed.toLocaleString()} failed` : ''}
        </td>
        {/* A plain cell around the buttons' row: a cell that is itself a flex box stops being a table cell,
            so it neither stretches to the row's height nor takes the row's hover. */}
        <td className="cell-actions">
          <div className="row">
            {resumable && profile ? (
              <WriteButton profile={profile} size="sm" variant="primary" onClick={() => onResume(profile)}>
                Resume
              </WriteButton>
            ) : resumable ? (
              <Button size="sm" disabled title="Its profile was deleted">
                Resume
              </Button>
            ) : null}
            <Button size="sm" variant="ghost" onClick={onToggle}>
              {open ? 'Hide' : 'Details'}
            </Button>
          </div>
        </td>
      </tr>
      {open ? (
        <tr>
          <td colSpan={6}>
            <JobDetails jobId={job.id} />
          </td>
        </tr>
      ) : null}
    </>
  );
}

/** What the journal holds of one job beyond its row: the target, what it created, what failed. */
function JobDetails({ jobId }: { jobId: string }) {
  const job = useBridgeQuery('jobs.get', { jobId });
  if (job.error) return <ErrorCallout error={job.error} />;
  if (!job.data) return <Spinner />;
  const { target, created, failures } = job.data;
  return (
    <div className="jobs-details" data-testid="job-details">
      <div>
        <strong>Target:</strong>{' '}
        <span className="mono">
          {'ids' in target
            ? plural(target.ids, 'listed item')
            : 'all' in target
              ? 'everything (chosen and confirmed)'
              : JSON.stringify(target.filters)}
        </span>
      </div>
      {created.length > 0 ? (
        <div>
          <strong>Created ({created.length.toLocaleString()}):</strong>{' '}
          <span className="mono">
            {created
              .slice(0, 50)
              .map((item) => item.id)
              .join(', ')}
          </span>
          {created.length > 50 ? ' …' : ''}
        </div>
      ) : null}
      {failures.length > 0 ? (
        <ul>
          {failures.slice(0, 50).map((failure, index) => (
            <li key={index}>
              <span className="mono">{failure.id ?? '(request)'}</span>: {failure.message}
            </li>
          ))}
          {failures.length > 50 ? (
            <li>…and {(failures.length - 50).toLocaleString()} more (export to see all)</li>
          ) : null}
        </ul>
      ) : null}
    </div>
  );
}

/** Continues a job: its preview is what is left. */
function ResumeDialog({
  job,
  profile,
  onClose,
}: {
  job: JobListing;
  profile: ProfileView;
  onClose: () => void;
}) {
  const verb = `Resume: ${actionText(job.action)}`;
  return (
    <JobDialog
      profile={profile}
      procedure="jobs.resume"
      input={{ jobId: job.id }}
      title="Resume job"
      verb={verb}
      unit={(count) => plural(count, 'item') + ' left'}
      description={job.description}
      danger={job.action === 'delete' || job.action === 'cancel'}
      preview={
        <p className="muted">
          It continues at the chunk where it stopped, with the overrides it started with; what it already did
          is not sent again.
        </p>
      }
      cappedNote="The rest of the listing continues as the job runs."
      runningHint="Cancel stops before the next request; resume again later."
      stoppedHint="Resume it again from this list."
      verbed="done"
      itemLabel="Item"
      onClose={onClose}
    />
  );
}

/** "waiting for the service (HTTP 503: …)" while it does, else "waited 3 times for the service (7 s in all)". */
function waitedText({ status, waited }: JobListing): string {
  if (!waited) return '';
  if (status === 'running' && waited.until > Date.now()) return `waiting for the service (${waited.reason})`;
  const seconds = Math.max(1, Math.round(waited.ms / 1000));
  return `waited ${waited.times === 1 ? 'once' : `${waited.times} times`} for the service (${seconds} s in all)`;
}

function actionText(action: string): string {
  return action === 'callback' ? 'retry failure function' : action;
}

/** "restart · retries 2 · labels replay" from a job's start options. */
/** The overrides a job ran with (its action, restart or resume, is already the row's verb). */
function describeOptions(options: Record<string, unknown>): string {
  return describeOverrides(options.overrides as Record<string, unknown>).join(' · ');
}
