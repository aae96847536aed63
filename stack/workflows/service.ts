// The workflow service: the server side of the protocol the vendor's workflow SDK speaks, run logs, the
// workflow DLQ and cancel. It is a peer of the message service (stack/stack.ts): same port, same store, same
// group commits. Its routes are matched before the message routes (where it takes over a message path — /v2/publish,
// /v2/batch, /v2/dlq — it hands the requests that are not its own on with ctx.next()), its write operations are part of the
// stack's registry (stack/writes.ts), its tables are a group of the StackStore (stack/store/workflow-store.ts),
// and the delivery engine calls its hooks for messages that belong to a run.
import type { Logger } from 'pino';
import { workPeer, type WorkPeer } from '../messages/service';
import { workflowStoreOf } from '../store/workflow-store';
import { dlqRoutes } from './routes-dlq';
import { logRoutes } from './routes-logs';
import { publishRoutes, runRoutes, waitRoutes } from './routes-protocol';
import { searchRoutes } from './routes-search';
import { WorkflowRuntime } from './runtime';

export type WorkflowService = WorkPeer<WorkflowRuntime>;

export function createWorkflowService(logger: Logger): WorkflowService {
  return workPeer('workflows', (context, router) => {
    const runtime = new WorkflowRuntime(
      workflowStoreOf(context.store),
      context.store,
      context.writer,
      context.engine,
      context.clock,
      logger,
    );
    publishRoutes(router, runtime, context);
    runRoutes(router, runtime);
    waitRoutes(router, runtime);
    logRoutes(router, runtime);
    dlqRoutes(router, runtime);
    searchRoutes(router, runtime);
    return runtime;
  });
}
