// The name of a queue, a URL group or an endpoint in procedure inputs: trimmed, then checked by the
// service's rules (an endpoint's name follows a URL group's, and the message names it as `called`).
import { z } from 'zod';
import { checkName } from '../../../messages/names';

export function resourceNameSchema(kind: Parameters<typeof checkName>[0], called: string = kind) {
  return z
    .string()
    .trim()
    .superRefine((name, ctx) => {
      const problem = checkName(kind, name);
      if (problem) ctx.addIssue({ code: 'custom', message: problem.replace(kind, called) });
    });
}
