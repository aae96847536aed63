import { describe, expect, it } from 'vitest';
import { BridgeError } from '../../../../shared/bridge/errors';
import {
  runOverridesSchema,
  workflowDlqTargetSchema,
} from '../../../../shared/bridge/procedures/workflows/dlq';
import { dlqIdsQuery, overrideHeaders, runFiltersQuery } from './client';

describe('an empty DLQ request is refused twice', () => {
  it('by the bridge schema: no empty filter, no empty ids; everything only as an explicit "all"', () => {
    expect(workflowDlqTargetSchema.safeParse({ filters: {} }).success).toBe(false);
    expect(workflowDlqTargetSchema.safeParse({ filters: { label: [] } }).success).toBe(false);
    expect(workflowDlqTargetSchema.safeParse({ ids: [] }).success).toBe(false);
    // The service reads ids comma-separated: `","` would be no id at all, so every entry.
    expect(workflowDlqTargetSchema.safeParse({ ids: [','] }).success).toBe(false);
    expect(workflowDlqTargetSchema.safeParse({ ids: ['a,b'] }).success).toBe(false);
    expect(workflowDlqTargetSchema.safeParse({ all: false }).success).toBe(false);
    expect(workflowDlqTargetSchema.safeParse({ filters: { label: ['nightly'] } }).success).toBe(true);
    expect(workflowDlqTargetSchema.safeParse({ all: true }).success).toBe(true);
  });

  it('and where main builds the request: actions go by id, never none', () => {
    expect(() => dlqIdsQuery([])).toThrow(BridgeError);
    expect(() => dlqIdsQuery([])).toThrow(/without ids: the service would act on every DLQ entry/);
    expect(() => dlqIdsQuery([','])).toThrow(/every DLQ entry/);
    expect(() => dlqIdsQuery(['a', ' '])).toThrow(BridgeError);
    expect(dlqIdsQuery(['a', 'b'])).toEqual({ dlqIds: ['a', 'b'] });
  });
});

describe('overrideHeaders', () => {
  it('turns every override of the API description into its Upstash-* header', () => {
    const overrides = runOverridesSchema.parse({
      retries: 0,
      delay: '10s',
      retryDelay: 'pow(2, retried) * 1000',
      flowControlKey: 'tenant-1',
      flowControlValue: 'parallelism=2, rate=10, period=1m',
      label: 'replay,nightly',
      failureCallback: 'https://hooks.example/failed',
    });
    expect(overrideHeaders(overrides)).toEqual({
      'Upstash-Retries': '0',
      'Upstash-Delay': '10s',
      'Upstash-Retry-Delay': 'pow(2, retried) * 1000',
      'Upstash-Flow-Control-Key': 'tenant-1',
      'Upstash-Flow-Control-Value': 'parallelism=2, rate=10, period=1m',
      'Upstash-Label': 'replay,nightly',
      'Upstash-Failure-Callback': 'https://hooks.example/failed',
    });
    expect(overrideHeaders({})).toEqual({});
  });

  it('rejects malformed overrides in the schema', () => {
    expect(runOverridesSchema.safeParse({ delay: 'soon' }).success).toBe(false);
    expect(runOverridesSchema.safeParse({ flowControlValue: 'fast' }).success).toBe(false);
    expect(runOverridesSchema.safeParse({ failureCallback: 'ftp://x' }).success).toBe(false);
    expect(runOverridesSchema.safeParse({ retryDelay: 'pow(' }).success).toBe(false);
  });
});

describe('runFiltersQuery', () => {
  it('passes every set filter and leaves out the empty ones', () => {
    const filters = {
      state: 'RUN_FAILED',
      workflowUrl: 'https://x.example/wf',
      label: ['a', 'b'],
      callerIp: '10.0.0.1',
      flowControlKey: 'k',
      fromDate: 1,
      toDate: 2,
    } as const;
    expect(runFiltersQuery({ ...filters, label: [...filters.label] })).toEqual(filters);
    expect(runFiltersQuery({ label: [] })).toEqual({});
  });
});
