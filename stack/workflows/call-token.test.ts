// A context.call message with `Upstash-Header-Forward: true` passes the caller's headers on to the third party,
// but never the token the publish authenticated with: not to the third party, not into the message's log, and
// not into the run's log (the console shows both). Plain publishes already kept it back (publish.test.ts); the
// workflow route planned its call messages without the token and forwarded it.
/* eslint-disable @typescript-eslint/no-explicit-any -- responses are read as loose JSON */
import { expect, it } from 'vitest';
import { useStackAndSink, waitForState } from '../messages/test-support';

const env = useStackAndSink();

it('does not forward the stack token on a context.call message published with Header-Forward', async () => {
  const runId = `wfr_call-token-${Math.random().toString(36).slice(2)}`;
  const workflow = {
    'upstash-workflow-runid': runId,
    'upstash-workflow-url': `${env.sink.url}/wf`,
    'upstash-workflow-sdk-version': '1',
    'content-type': 'application/json',
  };
  const started = await env.stack.api('POST', `/v2/publish/${env.sink.url}/wf`, {
    headers: { ...workflow, 'upstash-workflow-init': 'true' },
    body: '{}',
  });
  expect(started.status).toBe(200);
  await env.sink.waitFor(1, { match: (r) => r.url === '/wf' });

  const call = await env.stack.api('POST', `/v2/publish/${env.sink.url}/third-party`, {
    headers: {
      ...workflow,
      'upstash-workflow-init': 'false',
      'upstash-workflow-calltype': 'toCallback',
      'upstash-header-forward': 'true',
      'x-caller-header': 'kept',
      'upstash-retries': '0',
      'upstash-callback': `${env.sink.url}/wf`,
      'upstash-callback-workflow-runid': runId,
      'upstash-callback-workflow-calltype': 'fromCallback',
      'upstash-callback-workflow-init': 'false',
      'upstash-callback-forward-upstash-workflow-stepid': '1',
      'upstash-callback-forward-upstash-workflow-stepname': 'call',
      'upstash-callback-forward-upstash-workflow-steptype': 'Call',
    },
    body: '{"ask":1}',
  });
  expect(call.status).toBe(200);
  const messageId = (call.json as any).messageId as string;

  const [delivery] = await env.sink.waitFor(1, { match: (r) => r.url === '/third-party' });
  // Header-Forward works (the caller's own header arrives), and the token is not among what it passed on.
  expect(delivery?.headers['x-caller-header']).toBe('kept');
  expect(delivery?.headers.authorization).toBeUndefined();

  const [created] = await waitForState(env.stack, messageId, 'CREATED');
  expect(JSON.stringify(created).toLowerCase()).toContain('x-caller-header');
  expect(JSON.stringify(created)).not.toContain(env.stack.token);

  const runLog = await env.stack.api('GET', `/v2/workflows/logs?workflowRunId=${runId}`);
  expect(runLog.status).toBe(200);
  expect(runLog.text).toContain('third-party');
  expect(runLog.text).not.toContain(env.stack.token);
});
