// The events every service's bulk job streams in common (message DLQ retry/delete, workflow DLQ
// restart/resume/…): how far it has got, and its summary as the last event.
export interface JobProgress {
  type: 'progress';
  total: number;
  processed: number;
  succeeded: number;
  failed: number;
}

export interface JobDone<Summary> {
  type: 'done';
  summary: Summary;
}
