// DLQ triage: failed runs grouped by failure — workflow URL + failing step + status + error signature —
// so "812 runs failed at step `charge` with 503" is one row. The signature is the error text with the
// parts that differ between runs of the same failure (ids, numbers, times, addresses) replaced by
// placeholders; the sample keeps one real text so the operator reads what the service said.
import type { FailureGroup } from '../../../../shared/bridge/procedures/workflows/dlq';
import {
  ERROR_STEP_NAME_HEADER,
  type HeaderMap,
  type WorkflowDlqMessage,
} from '../../../../shared/workflows/types';

/** Longest signature kept: long stack traces differ only in their tails. */
const SIGNATURE_MAX = 160;

// Order matters: the wider patterns run first so a UUID is not eaten digit by digit.
const VOLATILE: [RegExp, string][] = [
  [/\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?\b/g, '<time>'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
  // Prefixed ids (wfr_…, msg_…, pay_…) and other letter-and-digit tokens of 8 characters or more.
  [/\b[A-Za-z]+_[A-Za-z0-9_-]*\d[A-Za-z0-9_-]*/g, '<id>'],
  [/\b(?=[A-Za-z0-9]*\d)(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{8,}\b/g, '<id>'],
  [/\b\d{1,3}(\.\d{1,3}){3}(:\d+)?\b/g, '<ip>'],
  [/\?[^\s"']*/g, '?<query>'],
  [/\d+(\.\d+)?/g, '<n>'],
];

/**
 * The error text of a failed attempt, read the way the workflow SDK writes it: a JSON body
 * `{"error": "...", "message": "..."}` gives its message; anything else is used as text.
 */
export function errorText(body: string | undefined, status: number): string {
  const text = (body ?? '').trim();
  if (!text) return status ? `HTTP ${status}` : 'no response';
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      const record = parsed as Record<string, unknown>;
      for (const key of ['message', 'error', 'reason', 'detail']) {
        const value = record[key];
        if (typeof value === 'string' && value.trim()) return value.trim();
      }
    }
  } catch {
    // Not JSON: the body is the text.
  }
  return text;
}

/** The error text with volatile parts replaced, whitespace collapsed, and cut to a readable length. */
export function errorSignature(text: string): string {
  let signature = text.replace(/\s+/g, ' ').trim();
  for (const [pattern, replacement] of VOLATILE) {
    signature = signature.replace(pattern, replacement);
  }
  return signature.length > SIGNATURE_MAX ? `${signature.slice(0, SIGNATURE_MAX - 1)}…` : signature;
}

function headerValue(headers: HeaderMap | undefined, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, values] of Object.entries(headers ?? {})) {
    if (key.toLowerCase() === wanted) return values[0];
  }
  return undefined;
}

/** The step the SDK named in its failure response (`Upstash-Error-Step-Name`), if it did. */
export function failingStepName(entry: Pick<WorkflowDlqMessage, 'responseHeader'>): string | undefined {
  return headerValue(entry.responseHeader, ERROR_STEP_NAME_HEADER)?.trim() || undefined;
}

/** A stable key for the group an entry falls in. */
export function groupKey(parts: {
  workflowUrl: string;
  stepName?: string;
  status: number;
  signature: string;
}) {
  return JSON.stringify([parts.workflowUrl, parts.stepName ?? null, parts.status, parts.signature]);
}

/** Groups DLQ entries by failure; biggest groups first, then the most recent. */
export function groupFailures(entries: readonly WorkflowDlqMessage[]): FailureGroup[] {
  const groups = new Map<string, FailureGroup>();
  for (const entry of entries) {
    const workflowUrl = entry.workflowUrl || entry.url;
    const stepName = failingStepName(entry);
    const status = entry.responseStatus ?? 0;
    const text = errorText(entry.responseBody, status);
    const signature = errorSignature(text);
    const key = groupKey({ workflowUrl, stepName, status, signature });
    const seen = entry.createdAt;
    const group = groups.get(key);
    if (!group) {
      groups.set(key, {
        key,
        workflowUrl,
        ...(stepName ? { stepName } : {}),
        status,
        signature,
        sample: text,
        count: 1,
        firstSeen: seen,
        lastSeen: seen,
        dlqIds: [entry.dlqId],
        workflowRunIds: [entry.workflowRunId],
      });
      continue;
    }
    group.count += 1;
    group.dlqIds.push(entry.dlqId);
    group.workflowRunIds.push(entry.workflowRunId);
    if (seen < group.firstSeen) group.firstSeen = seen;
    if (seen >= group.lastSeen) {
      group.lastSeen = seen;
      group.sample = text;
    }
  }
  return [...groups.values()].sort((a, b) => b.count - a.count || b.lastSeen - a.lastSeen);
}
