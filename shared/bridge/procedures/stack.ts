import { z } from 'zod';
import type { StackStatus } from '../../stack-status';
import { call, stream } from '../define';

export const stackProcedures = {
  'stack.status': call<StackStatus>()(z.object({})),
  /** Starts the stack if stopped or failed, restarts it if running. */
  'stack.restart': call<StackStatus>()(z.object({})),
  /** The current status at once, then every change (state or new log lines). */
  'stack.watch': stream<StackStatus>()(z.object({}), 'local'),
};
