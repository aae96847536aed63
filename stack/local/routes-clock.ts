// GET /local/clock and POST /local/clock/advance: the stack clock (stack/clock.ts), readable and movable forward
// by anyone holding the message API's token. Local-only: the cloud services have no such thing.
import { type ClockState, parseAdvanceBy } from '../../shared/local-stack/clock';
import { HttpError, type Router } from '../http/server';
import type { LocalContext } from './service';

export function clockRoutes(router: Router, local: LocalContext): void {
  const { clock, writer } = local;
  const state = (): ClockState => ({
    now: clock.now(),
    offsetMs: clock.offsetMs(),
    next: local.nextDue() ?? null,
  });
  // One advance at a time: each persists the offset it reaches before the clock moves.
  let queue: Promise<unknown> = Promise.resolve();

  router.add('GET', '/local/clock', () => ({ body: state() }));

  router.add('POST', '/local/clock/advance', async (ctx) => {
    const body = (await ctx.json()) as { by?: unknown } | null;
    const by = parseAdvanceBy(body !== null && typeof body === 'object' ? body.by : undefined);
    if (!by.ok) throw new HttpError(400, by.error);
    const advanced = queue.then(async () => {
      await writer.commit('setClockOffset', clock.offsetMs() + by.ms);
      clock.advance(by.ms);
      local.logger.info({ byMs: by.ms, offsetMs: clock.offsetMs() }, 'stack clock advanced');
      return state();
    });
    queue = advanced.catch(() => undefined);
    return { body: await advanced };
  });
}
