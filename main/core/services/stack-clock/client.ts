// The local stack's clock and run now (`/local/…`, stack/local/): every path and wire parse in one place, over
// the shared transport. It only ever talks to the Local profile's stack — the URL and token main got from the
// stack's ready line — never to a URL a page chose or to a cloud profile (the cloud has no such routes).
import { BridgeError } from '../../../../shared/bridge/errors';
import type { ClockItem } from '../../../../shared/bridge/procedures/clock';
import type { ClockState, DueItem, DueList, RunNowResult } from '../../../../shared/local-stack/clock';
import { LOCAL_PROFILE_ID } from '../../../../shared/profiles';
import { ServiceApi } from '../../http/service-api';
import type { ProfilesService } from '../../profiles/profiles-service';
import { messageEndpoint } from '../messages/client';

const enc = encodeURIComponent;
const JSON_HEADERS = { 'content-type': 'application/json' };

/** `/local/<collection>/<id>` of an item (stack/local/time-sources.ts names the collections). */
function itemPath(item: ClockItem): string {
  switch (item.kind) {
    case 'message':
      return `/local/messages/${enc(item.messageId)}`;
    case 'workflowRun':
      return `/local/workflows/runs/${enc(item.workflowRunId)}`;
    case 'schedule':
      return `/local/schedules/${enc(item.scheduleId)}`;
  }
}

export class StackClockClient {
  constructor(private readonly api: ServiceApi) {}

  async clock(): Promise<ClockState> {
    return (await this.api.json<ClockState>({ path: '/local/clock' })).body;
  }

  /**
   * `by`: a duration the stack parses (`7d`), milliseconds (sent as seconds, rounded up), or `to` a clock time,
   * measured from the clock read now (a time already reached moves nothing).
   */
  async advance(by: { duration: string } | { ms: number } | { to: number }): Promise<ClockState> {
    if ('to' in by) {
      const current = await this.clock();
      if (by.to <= current.now) return current;
      return this.advance({ ms: by.to - current.now });
    }
    const duration = 'duration' in by ? by.duration : `${Math.ceil(by.ms / 1_000)}s`;
    const { body } = await this.api.json<ClockState>({
      method: 'POST',
      path: '/local/clock/advance',
      headers: JSON_HEADERS,
      body: JSON.stringify({ by: duration }),
    });
    return body;
  }

  async due(item: ClockItem): Promise<DueItem[]> {
    return (await this.api.json<DueList>({ path: `${itemPath(item)}/due` })).body.items;
  }

  async runNow(item: ClockItem): Promise<DueItem> {
    return (await this.api.json<RunNowResult>({ method: 'POST', path: `${itemPath(item)}/run-now` })).body
      .ran;
  }
}

/** The client of the Local profile's stack; any other profile is refused (the cloud has no clock to move). */
export function stackClockClient(
  profiles: Pick<ProfilesService, 'resolve'>,
  profileId: string,
): StackClockClient {
  if (profileId !== LOCAL_PROFILE_ID) {
    throw new BridgeError({
      code: 'INVALID_INPUT',
      message:
        'The clock and Run now belong to the local stack: the cloud services have neither. Switch to the Local profile.',
    });
  }
  const local = profiles.resolve(LOCAL_PROFILE_ID);
  if (!local.settings.messagesUrl) {
    throw new BridgeError({
      code: 'NOT_CONFIGURED',
      message: 'The local stack is not running. Start it on the Local stack page.',
    });
  }
  return new StackClockClient(new ServiceApi(messageEndpoint(local)));
}
