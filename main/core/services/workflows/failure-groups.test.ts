import { describe, expect, it } from 'vitest';
import type { WorkflowDlqMessage } from '../../../../shared/workflows/types';
import { errorSignature, errorText, failingStepName, groupFailures } from './failure-groups';

function entry(over: Partial<WorkflowDlqMessage>): WorkflowDlqMessage {
  return {
    dlqId: 'dlq_1',
    messageId: 'msg_1',
    url: 'https://shop.example/api/order',
    method: 'POST',
    header: {},
    body: '',
    maxRetries: 3,
    notBefore: 0,
    createdAt: 1_000,
    workflowRunId: 'wfr_1',
    workflowCreatedAt: 900,
    workflowUrl: 'https://shop.example/api/order',
    responseStatus: 500,
    ...over,
  };
}

describe('errorText', () => {
  it('reads the message of the SDK error body, else the text, else the status', () => {
    expect(errorText('{"error":"WorkflowError","message":"card declined"}', 500)).toBe('card declined');
    expect(errorText('{"error":"upstream down"}', 503)).toBe('upstream down');
    expect(errorText('Bad Gateway', 502)).toBe('Bad Gateway');
    expect(errorText('', 503)).toBe('HTTP 503');
    expect(errorText(undefined, 0)).toBe('no response');
  });
});

describe('errorSignature', () => {
  it('replaces what differs between runs of the same failure', () => {
    const a = errorSignature(
      'order 4411 failed: payment id pay_9f8e7d6c5b4a3 timed out after 30000 ms at 2026-11-24T12:00:01Z',
    );
    const b = errorSignature(
      'order 98 failed: payment id pay_0a1b2c3d4e5f6 timed out after 15000 ms at 2026-11-25T08:30:59.123Z',
    );
    expect(a).toBe(b);
    expect(a).toContain('<time>');
    expect(a).toContain('<n>');
  });

  it('normalises uuids, run ids, addresses and query strings', () => {
    expect(errorSignature('run wfr_abc123 / 3f1b7f2e-8a8b-4c1e-9a55-0e0f9f1a2b3c')).toBe('run <id> / <uuid>');
    expect(errorSignature('connect ECONNREFUSED 127.0.0.1:3000')).toBe('connect ECONNREFUSED <ip>');
    expect(errorSignature('GET https://api.example/x?token=abc&n=2 failed')).toBe(
      'GET https://api.example/x?<query> failed',
    );
  });

  it('keeps different failures apart', () => {
    expect(errorSignature('card declined')).not.toBe(errorSignature('insufficient funds'));
  });

  it('collapses whitespace and cuts long texts', () => {
    expect(errorSignature('a\n\n  b\tc')).toBe('a b c');
    const long = errorSignature('x'.repeat(1000));
    expect(long.length).toBe(160);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('failingStepName', () => {
  it('reads Upstash-Error-Step-Name in any case', () => {
    expect(failingStepName({ responseHeader: { 'upstash-error-step-name': ['charge'] } })).toBe('charge');
    expect(failingStepName({ responseHeader: { 'Upstash-Error-Step-Name': [' ship '] } })).toBe('ship');
    expect(failingStepName({ responseHeader: {} })).toBeUndefined();
    expect(failingStepName({})).toBeUndefined();
  });
});

describe('groupFailures', () => {
  it('makes one row per URL + step + status + signature, with counts and first/last seen', () => {
    const charge = { 'Upstash-Error-Step-Name': ['charge'] };
    const groups = groupFailures([
      entry({
        dlqId: 'd1',
        workflowRunId: 'r1',
        responseHeader: charge,
        responseStatus: 503,
        responseBody: '{"message":"gateway 17 down"}',
        createdAt: 30,
      }),
      entry({
        dlqId: 'd2',
        workflowRunId: 'r2',
        responseHeader: charge,
        responseStatus: 503,
        responseBody: '{"message":"gateway 4 down"}',
        createdAt: 10,
      }),
      entry({
        dlqId: 'd3',
        workflowRunId: 'r3',
        responseHeader: charge,
        responseStatus: 503,
        responseBody: '{"message":"gateway 9 down"}',
        createdAt: 20,
      }),
      // Same error, other status: another group.
      entry({
        dlqId: 'd4',
        workflowRunId: 'r4',
        responseHeader: charge,
        responseStatus: 500,
        responseBody: '{"message":"gateway 9 down"}',
        createdAt: 5,
      }),
      // Same everything, other step.
      entry({
        dlqId: 'd5',
        workflowRunId: 'r5',
        responseHeader: { 'Upstash-Error-Step-Name': ['ship'] },
        responseStatus: 503,
        responseBody: '{"message":"gateway 1 down"}',
      }),
      // Other workflow URL.
      entry({
        dlqId: 'd6',
        workflowUrl: 'https://shop.example/api/refund',
        responseHeader: charge,
        responseStatus: 503,
        responseBody: '{"message":"gateway 1 down"}',
      }),
    ]);
    expect(groups).toHaveLength(4);
    const top = groups[0]!;
    expect(top).toMatchObject({
      stepName: 'charge',
      status: 503,
      signature: 'gateway <n> down',
      count: 3,
      firstSeen: 10,
      lastSeen: 30,
      sample: 'gateway 17 down',
      dlqIds: ['d1', 'd2', 'd3'],
      workflowRunIds: ['r1', 'r2', 'r3'],
    });
    expect(groups.map((group) => group.count).sort()).toEqual([1, 1, 1, 3]);
    expect(new Set(groups.map((group) => group.key)).size).toBe(4);
  });

  it('groups entries without a step name together, and an empty DLQ has no groups', () => {
    const groups = groupFailures([entry({ dlqId: 'a' }), entry({ dlqId: 'b' })]);
    expect(groups).toHaveLength(1);
    expect(groups[0]!.stepName).toBeUndefined();
    expect(groups[0]!.signature).toBe('HTTP <n>');
    expect(groupFailures([])).toEqual([]);
  });
});
