// Bulk cancel, built so that it can never go out empty: `DELETE /v2/messages` without ids or filters
// cancels EVERY pending message at the real service. The bridge schema refuses such input already; this
// module refuses it again, right where the request is built, so no other caller can send one either.
import { BridgeError } from '../../../../shared/bridge/errors';
import type { CancelTarget } from '../../../../shared/bridge/procedures/messages/logs';
import { hasAnyFilter } from '../../../../shared/bridge/procedures/messages/filters';
import { filtersToQuery } from '../filters/query';
import type { MessageApi, MessageApiRequest, QueryValue } from '../message-api';

/** Ids per request: the service's bulk-cancel maximum is 500; 100 keeps URLs short. */
export const CANCEL_CHUNK = 100;

const refuse = () =>
  new BridgeError({
    code: 'INVALID_INPUT',
    message:
      'Refusing to send a cancel request without message ids or filters: the service would cancel every message.',
  });

/** The requests a cancel takes (ids in chunks, or one filtered request). Throws for an empty target. */
export function cancelRequests(target: CancelTarget): MessageApiRequest[] {
  if ('messageIds' in target) {
    const ids = (target.messageIds ?? []).filter((id) => typeof id === 'string' && id.trim() !== '');
    if (ids.length === 0) throw refuse();
    if (ids.length === 1) {
      return [{ method: 'DELETE', path: `/v2/messages/${encodeURIComponent(ids[0]!)}` }];
    }
    const requests: MessageApiRequest[] = [];
    for (let start = 0; start < ids.length; start += CANCEL_CHUNK) {
      requests.push({
        method: 'DELETE',
        path: '/v2/messages',
        query: { messageIds: ids.slice(start, start + CANCEL_CHUNK) },
      });
    }
    return requests;
  }
  const filters = (target as { filters?: Record<string, unknown> }).filters ?? {};
  const query: Record<string, QueryValue> = filtersToQuery(filters as never);
  if (!hasAnyFilter(filters) || Object.keys(query).length === 0) throw refuse();
  return [{ method: 'DELETE', path: '/v2/messages', query }];
}

export async function cancelMessages(api: MessageApi, target: CancelTarget): Promise<{ cancelled: number }> {
  const requests = cancelRequests(target);
  let cancelled = 0;
  for (const request of requests) {
    const { body } = await api.json<{ cancelled?: number } | null>(request);
    // Older services answer `202 OK` with no JSON count: count the ids we asked for.
    const ids = request.query?.messageIds;
    cancelled += body?.cancelled ?? (Array.isArray(ids) ? ids.length : 1);
  }
  return { cancelled };
}
