// A bridge session for main's tests: a router over the test's own procedures and handlers (no read-only
// profiles), and every frame the session sends, in order.
import type { ProcedureDef } from '../../../shared/bridge/define';
import type { ServerFrame } from '../../../shared/bridge/frames';
import { createRouter, type Handlers } from '../bridge/router';
import { BridgeSession } from '../bridge/session';

export function testSession(
  registry: Record<string, ProcedureDef>,
  handlers: Record<string, unknown>,
): { session: BridgeSession; frames: ServerFrame[] } {
  const router = createRouter({
    handlers: handlers as unknown as Handlers,
    registry,
    isReadOnly: () => false,
    logError: () => {},
  });
  const frames: ServerFrame[] = [];
  return {
    session: new BridgeSession(router, (frame) => frames.push(frame), { flushIntervalMs: 5 }),
    frames,
  };
}
