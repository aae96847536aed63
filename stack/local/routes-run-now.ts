// "Run now" (POST /local/<collection>/<id>/run-now) and what an item still waits for (GET …/due), for every
// time source (time-sources.ts): a delayed or backing-off message, a workflow run's sleep or wait timeout, a
// schedule's tick. Run now never moves the clock: the item becomes due at the clock's current time.
import type { DueList, RunNowResult } from '../../shared/local-stack/clock';
import type { Router } from '../http/server';
import type { LocalContext } from './service';

export function runNowRoutes(router: Router, local: LocalContext): void {
  for (const source of local.sources) {
    router.add('POST', `/local/${source.collection}/:id/run-now`, async (ctx) => {
      const ran = await source.runNow(ctx.params.id as string);
      local.logger.info({ ran }, 'run now');
      return { body: { ran } satisfies RunNowResult };
    });
    router.add('GET', `/local/${source.collection}/:id/due`, (ctx) => ({
      body: { items: source.due(ctx.params.id as string) } satisfies DueList,
    }));
  }
}
