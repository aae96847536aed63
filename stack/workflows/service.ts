// The workflow service: the server side of the protocol the vendor's workflow SDK speaks, run logs, the
// workflow DLQ and cancel. It is built on the message service (same port, same database, same group commits):
// its routes are matched first, its write operations join the message writes, and the delivery engine calls
// its hooks for messages that belong to a run.
import type { Logger } from 'pino';
import type { Router } from '../http/server';
import type { EngineHooks } from '../messages/engine';
import { messageRoutes } from '../messages/routes-messages';
import { publishRoutes as messagePublishRoutes } from '../messages/routes-publish';
import type { ServiceContext } from '../messages/service-context';
import { WorkflowStore } from '../store/workflow-store';
import { dlqRoutes } from './routes-dlq';
import { logRoutes } from './routes-logs';
import { publishRoutes, runRoutes, waitRoutes } from './routes-protocol';
import { WorkflowRuntime } from './runtime';
import { WORKFLOW_WRITES } from './write-ops';

/** The name of the writer-thread registry holding the message and workflow writes (stack/writer-thread.ts). */
export const STACK_WRITE_REGISTRY = 'stack';

export interface WorkflowService {
  hooks: EngineHooks;
  routes(router: Router, context: ServiceContext): void;
  writes: { ops: typeof WORKFLOW_WRITES; registry: string };
  /** The runtime, once the message service has started. */
  runtime(): WorkflowRuntime | undefined;
  stop(): void;
}

export function createWorkflowService(logger: Logger): WorkflowService {
  let runtime: WorkflowRuntime | undefined;
  let hooks: EngineHooks | undefined;
  return {
    hooks: {
      prepare: (record, request) => hooks?.prepare?.(record, request) ?? request,
      onOutcome: (record, outcome) => hooks?.onOutcome?.(record, outcome),
    },
    routes(router, context) {
      runtime = new WorkflowRuntime(
        new WorkflowStore(context.store.db),
        context.store,
        context.writer,
        context.engine,
        context.clock,
        logger,
      );
      hooks = runtime.hooks();
      // The message service's own handlers, for the requests the workflow routes hand back.
      const fallback = new (router.constructor as new () => Router)();
      messagePublishRoutes(fallback, context);
      messageRoutes(fallback, context);
      publishRoutes(router, runtime, fallback);
      runRoutes(router, runtime);
      waitRoutes(router, runtime);
      logRoutes(router, runtime);
      dlqRoutes(router, runtime, fallback);
      runtime.start();
    },
    writes: { ops: WORKFLOW_WRITES, registry: STACK_WRITE_REGISTRY },
    runtime: () => runtime,
    stop() {
      runtime?.stop();
    },
  };
}
