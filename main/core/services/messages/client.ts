// The message service's client: every path, query string and wire parse of its API (URL groups, queues,
// logs and cancel, the DLQ, signing keys, publish and batch) in one place, over the shared transport
// (http/service-api.ts). Feature handlers call these methods and never build URLs or read wire shapes.
import { BridgeError } from '../../../../shared/bridge/errors';
import { checkListIds } from '../../../../shared/bridge/list-ids';
import type { BatchItemOutcome } from '../../../../shared/bridge/procedures/messages/batch';
import type { DlqPage } from '../../../../shared/bridge/procedures/messages/dlq';
import { LOGS_MAX_COUNT, type LogsPage } from '../../../../shared/bridge/procedures/messages/logs';
import type { SentMessage } from '../../../../shared/bridge/procedures/messages/publish';
import type { BuiltRequest } from '../../../../shared/composer/request';
import type {
  BatchResultItem,
  DLQListResponse,
  DLQMessage,
  LogEntry,
  LogsResponse,
  PublishResponse,
  Queue,
  SigningKeys,
  UrlGroup,
} from '../../../../shared/messages/types';
import type { Schedule, ScheduleCreated, ScheduleTriggered } from '../../../../shared/messages/schedules';
import type { ServiceResponse } from '../../http/service-http';
import { type QueryValue, ServiceApi, type ServiceEndpoint } from '../../http/service-api';
import type { ProfilesService, ResolvedProfile } from '../../profiles/profiles-service';
import { logsByIds, type ReadLogsPage } from './logs-by-ids';

const enc = encodeURIComponent;
const JSON_HEADERS = { 'content-type': 'application/json' };
const topicPath = (name: string, suffix = '') => `/v2/topics/${enc(name)}${suffix}`;
const queuePath = (name: string, suffix = '') => `/v2/queues/${enc(name)}${suffix}`;
const dlqPath = (dlqId: string) => `/v2/dlq/${enc(dlqId)}`;
const schedulePath = (id: string, suffix = '') => `/v2/schedules/${enc(id)}${suffix}`;
const PROBE_PATH = '/v2/queues';

/** Where a profile's message API is (the workflow service shares its host and token). */
export function messageEndpoint(profile: ResolvedProfile): ServiceEndpoint {
  return {
    baseUrl: profile.settings.messagesUrl,
    token: profile.secret('messageToken'),
    profileName: profile.settings.name,
    service: 'message API',
    tokenName: 'message token',
    unavailable: profile.unavailable,
  };
}

type FilterInput = Record<string, string | number | readonly (string | number)[] | undefined>;

/**
 * Filters of the logs, bulk cancel and the DLQ → the query parameters the service reads. Multi-value
 * filters become repeated parameters (`label=a&label=b`), which both the cloud and the local stack accept;
 * the SDK's `urlGroup` is `topicName` on the wire.
 */
export function filtersToQuery(filters: FilterInput): Record<string, QueryValue> {
  const query: Record<string, QueryValue> = {};
  for (const [key, value] of Object.entries(filters)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      if (value.length > 0) query[key] = value;
    } else {
      query[key] = value as string | number;
    }
  }
  return query;
}

/**
 * One spelling for the UI: state `CANCELLED` (the SDKs say `CANCELED`), `responseHeader` and
 * `retryDelayExpression` whichever field the service used.
 */
export function normalizeLogEntry(entry: LogEntry): LogEntry {
  const out: LogEntry = { ...entry };
  if ((out.state as string) === 'CANCELED') out.state = 'CANCELLED';
  out.responseHeader ??= out.responseHeaders;
  delete out.responseHeaders;
  out.retryDelayExpression ??= out.retryDelayExpr;
  delete out.retryDelayExpr;
  return out;
}

/** The cloud may leave out empty fields; the UI always gets a list of endpoints. */
function normalizeGroup(group: UrlGroup): UrlGroup {
  return { ...group, endpoints: group.endpoints ?? [] };
}

/** An empty or absent cursor means "no more"; the console uses undefined for that. */
function cursorOf(value: unknown): string | undefined {
  return value ? String(value) : undefined;
}

function isPublishResponse(value: unknown): value is PublishResponse {
  return (
    typeof value === 'object' && value !== null && typeof (value as PublishResponse).messageId === 'string'
  );
}

/** A publish answer (object for a URL, array for a URL group) as a list of sent messages. */
function sentMessages(body: unknown): { fanOut: boolean; messages: SentMessage[] } | undefined {
  if (Array.isArray(body) && body.every(isPublishResponse)) return { fanOut: true, messages: body };
  if (isPublishResponse(body)) return { fanOut: false, messages: [body] };
  return undefined;
}

function unexpected(status: number, body: unknown): BridgeError {
  return new BridgeError({
    code: 'SERVICE_ERROR',
    status,
    message: `The service answered with an unexpected body: ${JSON.stringify(body).slice(0, 300)}`,
  });
}

export class MessageClient {
  constructor(readonly api: ServiceApi) {}

  static forProfile(profile: ResolvedProfile): MessageClient {
    return new MessageClient(new ServiceApi(messageEndpoint(profile)));
  }

  /** One cheap authenticated request, answered whatever its status (the profile's connection test). */
  probe(timeoutMs: number): Promise<ServiceResponse> {
    return this.api.send({ path: PROBE_PATH, timeoutMs });
  }

  probeUrl(): string {
    return this.api.url(PROBE_PATH);
  }

  // ---- publish and batch: the request comes built from shared/composer (what the preview showed)

  async publish(
    request: BuiltRequest,
  ): Promise<{ status: number; fanOut: boolean; messages: SentMessage[] }> {
    const response = await this.api.json<unknown>({
      method: 'POST',
      path: request.path,
      headers: Object.fromEntries(request.headers),
      body: request.body,
    });
    const sent = sentMessages(response.body);
    if (!sent) throw unexpected(response.status, response.body);
    return { status: response.status, ...sent };
  }

  /** Results come back aligned with the items: messages (several for a group), or the service's error. */
  async batch(request: BuiltRequest, items: number): Promise<{ status: number; items: BatchItemOutcome[] }> {
    const response = await this.api.json<BatchResultItem[]>({
      method: 'POST',
      path: request.path,
      headers: Object.fromEntries(request.headers),
      body: request.body,
    });
    if (!Array.isArray(response.body) || response.body.length !== items) {
      throw unexpected(response.status, response.body);
    }
    return {
      status: response.status,
      items: response.body.map((result): BatchItemOutcome => {
        const sent = sentMessages(result);
        if (sent) return { ok: true, ...sent };
        const error = (result as { error?: unknown }).error;
        return { ok: false, error: typeof error === 'string' ? error : JSON.stringify(result) };
      }),
    };
  }

  // ---- URL groups (`topics` on the wire); adding endpoints to a missing group creates it

  async urlGroups(): Promise<UrlGroup[]> {
    const { body } = await this.api.json<UrlGroup[] | null>({ path: '/v2/topics' });
    return (body ?? []).map(normalizeGroup);
  }

  async urlGroup(name: string): Promise<UrlGroup> {
    return normalizeGroup((await this.api.json<UrlGroup>({ path: topicPath(name) })).body);
  }

  async addEndpoints(name: string, endpoints: { url: string; name?: string }[]): Promise<void> {
    await this.api.request({
      method: 'POST',
      path: topicPath(name, '/endpoints'),
      headers: JSON_HEADERS,
      body: JSON.stringify({
        endpoints: endpoints.map((endpoint) => (endpoint.name ? endpoint : { url: endpoint.url })),
      }),
    });
  }

  /** Removing the last endpoint deletes the group at the service. */
  async removeEndpoints(name: string, endpoints: { url?: string; name?: string }[]): Promise<void> {
    await this.api.request({
      method: 'DELETE',
      path: topicPath(name, '/endpoints'),
      headers: JSON_HEADERS,
      body: JSON.stringify({ endpoints }),
    });
  }

  async setUrlGroupHeaders(name: string, headers: Record<string, string[]>): Promise<void> {
    await this.api.request({
      method: 'PATCH',
      path: topicPath(name),
      headers: JSON_HEADERS,
      body: JSON.stringify({ headers }),
    });
  }

  async deleteUrlGroup(name: string): Promise<void> {
    await this.api.request({ method: 'DELETE', path: topicPath(name) });
  }

  // ---- queues; upsert, pause and resume answer nothing

  async queues(): Promise<Queue[]> {
    return (await this.api.json<Queue[] | null>({ path: '/v2/queues' })).body ?? [];
  }

  async queue(name: string): Promise<Queue> {
    return (await this.api.json<Queue>({ path: queuePath(name) })).body;
  }

  async upsertQueue(queue: { name: string; parallelism: number; paused: boolean }): Promise<void> {
    await this.api.request({
      method: 'POST',
      path: '/v2/queues',
      headers: JSON_HEADERS,
      body: JSON.stringify({ queueName: queue.name, parallelism: queue.parallelism, paused: queue.paused }),
    });
  }

  async setQueuePaused(name: string, paused: boolean): Promise<void> {
    await this.api.request({ method: 'POST', path: queuePath(name, paused ? '/pause' : '/resume') });
  }

  async deleteQueue(name: string): Promise<void> {
    await this.api.request({ method: 'DELETE', path: queuePath(name) });
  }

  // ---- schedules; create, pause, resume and delete answer nothing the console needs (read it back)

  async schedules(signal?: AbortSignal): Promise<Schedule[]> {
    return (await this.api.json<Schedule[] | null>({ path: '/v2/schedules', signal })).body ?? [];
  }

  async schedule(id: string): Promise<Schedule> {
    return (await this.api.json<Schedule>({ path: schedulePath(id) })).body;
  }

  /** The request comes built from shared/messages/schedule-form.ts (what the editor previewed). */
  async createSchedule(request: BuiltRequest): Promise<string> {
    const response = await this.api.json<ScheduleCreated>({
      method: 'POST',
      path: request.path,
      headers: Object.fromEntries(request.headers),
      body: request.body,
    });
    if (typeof response.body?.scheduleId !== 'string') throw unexpected(response.status, response.body);
    return response.body.scheduleId;
  }

  /** PATCH, as the vendor's SDK sends it (the real service and the local stack also take POST). */
  async setSchedulePaused(id: string, paused: boolean): Promise<void> {
    await this.api.request({ method: 'PATCH', path: schedulePath(id, paused ? '/pause' : '/resume') });
  }

  async deleteSchedule(id: string): Promise<void> {
    await this.api.request({ method: 'DELETE', path: schedulePath(id) });
  }

  /** The local stack's trigger now (a local extension: the real service has no such endpoint). */
  async triggerScheduleLocally(id: string): Promise<string[]> {
    const response = await this.api.json<ScheduleTriggered>({
      method: 'POST',
      path: `/local/schedules/${enc(id)}/trigger`,
    });
    if (!Array.isArray(response.body?.messageIds)) throw unexpected(response.status, response.body);
    return response.body.messageIds;
  }

  // ---- logs and cancel

  /** One page, newest first; `events` whichever key the service used (`logs` in the current OpenAPI). */
  async logs(
    filters: FilterInput,
    cursor: string | undefined,
    count: number,
    signal?: AbortSignal,
  ): Promise<LogsPage> {
    const { messageIds } = filters;
    if (Array.isArray(messageIds) && messageIds.length > 0) {
      // The service filters by one message id: read the set id by id (logs-by-ids.ts).
      const read: ReadLogsPage = (idFilters, idCursor) =>
        this.logsPage(idFilters as FilterInput, idCursor, LOGS_MAX_COUNT);
      return logsByIds(read, messageIds.map(String), filters, cursor);
    }
    return this.logsPage(filters, cursor, count, signal);
  }

  /** One request to the logs endpoint. */
  private async logsPage(
    filters: FilterInput,
    cursor: string | undefined,
    count: number,
    signal?: AbortSignal,
  ): Promise<LogsPage> {
    const { body } = await this.api.json<Partial<LogsResponse> | null>({
      path: '/v2/logs',
      query: { ...filtersToQuery(filters), cursor, count },
      signal,
    });
    const events = body?.events ?? body?.logs ?? [];
    const page: LogsPage = { events: events.map(normalizeLogEntry) };
    const next = cursorOf(body?.cursor);
    if (next) page.cursor = next;
    return page;
  }

  /**
   * Cancels the listed messages in one request; answers how many the service cancelled (finished ones are
   * not counted). `DELETE /v2/messages` without ids cancels EVERY pending message at the real service, so
   * an empty list is refused right here, where the request is built, whoever calls.
   */
  async cancelMany(messageIds: readonly string[]): Promise<number> {
    const ids = checkListIds(messageIds, 'message');
    const { body } = await this.api.json<{ cancelled?: number } | null>({
      method: 'DELETE',
      path: '/v2/messages',
      query: { messageIds: ids },
    });
    // Older services answer `202 OK` with no JSON count: count the ids we asked for.
    return Math.min(ids.length, body?.cancelled ?? ids.length);
  }

  // ---- the DLQ

  async listDlq(
    filters: FilterInput,
    cursor: string | undefined,
    count: number,
    signal?: AbortSignal,
  ): Promise<DlqPage> {
    const { body } = await this.api.json<DLQListResponse | null>({
      path: '/v2/dlq',
      query: { ...filtersToQuery(filters), cursor, count },
      signal,
    });
    const page: DlqPage = { messages: body?.messages ?? [] };
    const next = cursorOf(body?.cursor);
    if (next) page.cursor = next;
    return page;
  }

  async getDlqEntry(dlqId: string): Promise<DLQMessage> {
    return (await this.api.json<DLQMessage>({ path: dlqPath(dlqId) })).body;
  }

  /** `headers`: the retry's setting overrides as `Upstash-*` headers (shared/messages/overrides). */
  async retryDlq(dlqId: string, headers: Record<string, string>): Promise<{ messageId: string }> {
    const { body } = await this.api.json<{ messageId: string }>({
      method: 'POST',
      path: `/v2/dlq/retry/${enc(dlqId)}`,
      headers,
    });
    return { messageId: body.messageId };
  }

  /** One bulk retry; the new message of each id, in the order of `dlqIds` ('' when the service left one out). */
  async retryDlqMany(dlqIds: string[], headers: Record<string, string>): Promise<string[]> {
    checkListIds(dlqIds, 'DLQ entry');
    const { body } = await this.api.json<{ responses?: { messageId: string }[] } | null>({
      method: 'POST',
      path: '/v2/dlq/retry',
      query: { dlqIds },
      headers,
    });
    const responses = body?.responses ?? [];
    return dlqIds.map((_, index) => responses[index]?.messageId ?? '');
  }

  async deleteDlq(dlqId: string): Promise<void> {
    await this.api.request({ method: 'DELETE', path: dlqPath(dlqId) });
  }

  /** One bulk delete; answers how many the service deleted (it does not say which were already gone). */
  async deleteDlqMany(dlqIds: string[]): Promise<number> {
    checkListIds(dlqIds, 'DLQ entry');
    const { body } = await this.api.json<{ deleted?: number } | null>({
      method: 'DELETE',
      path: '/v2/dlq',
      query: { dlqIds },
    });
    return Math.min(dlqIds.length, body?.deleted ?? dlqIds.length);
  }

  // ---- signing keys

  async signingKeys(): Promise<SigningKeys> {
    return (await this.api.json<SigningKeys>({ path: '/v2/keys' })).body;
  }

  async rotateSigningKeys(): Promise<SigningKeys> {
    return (await this.api.json<SigningKeys>({ method: 'POST', path: '/v2/keys/rotate' })).body;
  }
}

/** The client of each profile's message service, by profile id (handlers take this). */
export function clientsFor(profiles: Pick<ProfilesService, 'resolve'>): (profileId: string) => MessageClient {
  return (profileId) => MessageClient.forProfile(profiles.resolve(profileId));
}
