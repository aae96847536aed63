// Query-string (and legacy JSON-body) filters of bulk cancel, logs and the DLQ. Multi-value filters may be
// repeated (`label=a&label=b`) or comma-joined (`label=a,b`); values OR within a filter, filters AND.
import { expandStateFilter, type MessageState } from '../../shared/messages/types';
import { HttpError, refuseUnknownParams } from '../http/server';
import type { StoreFilters } from '../store/query-filters';
import { TOKEN_PARAMS } from './publish-request';

/** Where filters are read from: a query string, or a legacy JSON body. */
type Source = { getAll(name: string): string[] };
/** A source that also tells which names it holds (to refuse unknown ones). */
type NamedSource = Source & { keys(): Iterable<string> };

const LIST_FILTERS: [keyof StoreFilters, string[]][] = [
  ['messageIds', ['messageIds', 'messageId']],
  ['url', ['url']],
  ['topicName', ['topicName', 'urlGroup']],
  ['queueName', ['queueName']],
  ['scheduleId', ['scheduleId']],
  ['label', ['label', 'labels']],
  ['flowControlKey', ['flowControlKey']],
  ['callerIp', ['callerIp', 'callerIP']],
  ['host', ['host']],
  ['path', ['path']],
  ['dlqIds', ['dlqIds', 'dlqId']],
  ['api', ['api']],
];

/**
 * What a bulk request (cancel, DLQ retry and delete) must not do, since each would widen the action to every
 * message without anyone choosing "all":
 * - name a parameter other than its filters, `count`, `cursor` and the token's (a typo such as `labeel=x`):
 *   refused, naming it;
 * - give a filter with no value (`dlqIds=`, `label=%20`, `messageIds=,`, `{"messageIds": []}`): refused; ignored,
 *   it was no filter. The SDK's "all" sends no filter at all, and never an empty list (it refuses one itself).
 */
export function refuseWideningFilters(source: NamedSource, allowed: { dlq?: boolean }, where: string): void {
  const known = new Set(['count', 'cursor', 'fromDate', 'toDate']);
  for (const [key, names] of LIST_FILTERS) {
    if (key === 'dlqIds' && !allowed.dlq) continue;
    names.forEach((name) => known.add(name));
  }
  if (allowed.dlq) known.add('responseStatus');
  // host and path are known words on the DLQ too: parseFilters explains why they do not apply there.
  refuseUnknownParams(source.keys(), known, where, TOKEN_PARAMS);
  for (const name of new Set(source.keys())) {
    if (name === 'count' || name === 'cursor' || (TOKEN_PARAMS as readonly string[]).includes(name)) continue;
    if (values(source, [name]).length === 0) {
      throw new HttpError(
        400,
        `empty filter '${name}' for ${where}: give it a value, or leave it out ` +
          '(with no filter at all, the action takes every message)',
      );
    }
  }
}

function values(source: Source, names: string[]): string[] {
  const out: string[] = [];
  for (const name of names) {
    for (const value of source.getAll(name)) {
      for (const part of value.split(',')) if (part.trim() !== '') out.push(part.trim());
    }
  }
  return out;
}

function date(source: Source, name: string): number | undefined {
  const value = source.getAll(name)[0];
  if (value === undefined || value === '') return undefined;
  if (!/^\d{1,15}$/.test(value))
    throw new HttpError(400, `invalid ${name} '${value}': expected unix milliseconds`);
  return Number(value);
}

export function parseFilters(source: Source, allowed: { state?: boolean; dlq?: boolean }): StoreFilters {
  const filters: StoreFilters = {};
  for (const [key, names] of LIST_FILTERS) {
    if (key === 'dlqIds' && !allowed.dlq) continue;
    const found = values(source, names);
    if (found.length > 0) (filters[key] as string[]) = found;
  }
  if (allowed.dlq && (filters.host || filters.path)) {
    throw new HttpError(400, 'the DLQ cannot be filtered by host or path; filter by url instead');
  }
  const from = date(source, 'fromDate');
  if (from !== undefined) filters.fromDate = from;
  const to = date(source, 'toDate');
  if (to !== undefined) filters.toDate = to;
  if (allowed.state) {
    const states = values(source, ['state']);
    if (states.length > 0) {
      const expanded = new Set<MessageState>();
      for (const state of states) {
        const matched = expandStateFilter(state);
        if (!matched) {
          throw new HttpError(
            400,
            `invalid state '${state}': use CREATED, ACTIVE, RETRY, ERROR, DELIVERED, FAILED, CANCEL_REQUESTED, CANCELLED or IN_PROGRESS`,
          );
        }
        matched.forEach((s) => expanded.add(s));
      }
      filters.state = [...expanded];
    }
  }
  if (allowed.dlq) {
    const statuses = values(source, ['responseStatus']);
    if (statuses.length > 0) {
      filters.responseStatus = statuses.map((status) => {
        if (!/^\d{1,3}$/.test(status)) throw new HttpError(400, `invalid responseStatus '${status}'`);
        return Number(status);
      });
    }
  }
  return filters;
}

/** Legacy JSON bodies (`{"messageIds": [...]}`, `{"dlqIds": [...]}` or filter fields) as a Source. */
export function jsonSource(body: unknown): NamedSource {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(400, 'expected a JSON object with ids or filters');
  }
  const record = body as Record<string, unknown>;
  return {
    keys: () => Object.keys(record),
    getAll(name) {
      const value = record[name];
      if (value === undefined || value === null) return [];
      if (Array.isArray(value)) {
        return value.map((item) => {
          if (typeof item !== 'string' && typeof item !== 'number') {
            throw new HttpError(400, `'${name}' must be a list of strings`);
          }
          return String(item);
        });
      }
      if (typeof value === 'string' || typeof value === 'number') return [String(value)];
      throw new HttpError(400, `'${name}' must be a string or a list of strings`);
    },
  };
}

export function hasFilter(filters: StoreFilters): boolean {
  return Object.values(filters).some((value) =>
    Array.isArray(value) ? value.length > 0 : value !== undefined,
  );
}

export function parseCount(source: URLSearchParams, fallback: number, max: number): number {
  const value = source.get('count');
  if (value === null || value === '') return fallback;
  if (!/^\d+$/.test(value) || Number(value) < 1) {
    throw new HttpError(400, `invalid count '${value}': expected a whole number from 1 to ${max}`);
  }
  return Math.min(Number(value), max);
}

export function parseCursor(source: URLSearchParams): number | undefined {
  const value = source.get('cursor');
  if (value === null || value === '') return undefined;
  // Cursors are ours (`<id>`), but accept the real service's `<ms>-<n>` shape by reading its leading number.
  const match = /^(\d{1,15})(-\d+)?$/.exec(value);
  if (!match) throw new HttpError(400, `invalid cursor '${value}'`);
  return Number(match[1]);
}
