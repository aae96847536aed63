// The restart/resume overrides as typed → the bridge's overrides, checked with the same schema main
// uses, so a field's problem shows under the field before anything is sent.
import {
  type RunOverridesInput,
  runOverridesSchema,
} from '../../../../../shared/bridge/procedures/workflows/dlq';

export interface OverridesDraft {
  retries: string;
  delay: string;
  retryDelay: string;
  flowControlKey: string;
  flowControlValue: string;
  label: string;
  failureCallback: string;
}

export const EMPTY_OVERRIDES: OverridesDraft = {
  retries: '',
  delay: '',
  retryDelay: '',
  flowControlKey: '',
  flowControlValue: '',
  label: '',
  failureCallback: '',
};

export function toRunOverrides(draft: OverridesDraft): {
  overrides: RunOverridesInput;
  errors: Partial<Record<keyof OverridesDraft, string>>;
} {
  const errors: Partial<Record<keyof OverridesDraft, string>> = {};
  const overrides: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(draft) as [keyof OverridesDraft, string][]) {
    const text = raw.trim();
    if (!text) continue;
    if (key === 'retries') {
      if (!/^\d+$/.test(text)) errors.retries = 'a whole number';
      else overrides.retries = Number(text);
    } else {
      overrides[key] = text;
    }
  }
  if (overrides.flowControlValue !== undefined && overrides.flowControlKey === undefined) {
    errors.flowControlKey = 'a flow-control value needs a key';
  }
  const parsed = runOverridesSchema.safeParse(overrides);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0]) as keyof OverridesDraft;
      errors[key] ??= issue.message;
    }
  }
  return { overrides: overrides as RunOverridesInput, errors };
}

/** "retries 2 · delay 10s · labels replay" for the summary and the journal. */
export function describeRunOverrides(overrides: RunOverridesInput): string[] {
  const names: Record<string, string> = {
    retries: 'retries',
    delay: 'delay',
    retryDelay: 'retry delay',
    flowControlKey: 'flow-control key',
    flowControlValue: 'flow control',
    label: 'labels',
    failureCallback: 'failure callback',
  };
  return Object.entries(overrides)
    .filter(([, value]) => value !== undefined && value !== '')
    .map(([key, value]) => `${names[key] ?? key} ${String(value)}`);
}
