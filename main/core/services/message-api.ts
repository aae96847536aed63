// The one HTTP client main uses for the message + workflow API of a profile (the local stack or the
// cloud): base URL and bearer token from the profile, the service's own error text on failure.
// Feature handlers build on `request`/`json`; the renderer never builds URLs or headers itself.
import { BridgeError } from '../../../shared/bridge/errors';
import { joinUrl } from '../http/connection-test';
import { serviceErrorText, serviceRequest, type ServiceResponse } from '../http/service-http';
import type { ResolvedProfile } from '../profiles/profiles-service';

export type QueryValue = string | number | boolean | undefined | null | readonly (string | number)[];

export interface MessageApiRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Absolute API path, e.g. `/v2/publish/https://example.com`. Not re-encoded. */
  path: string;
  /** Arrays become repeated parameters (`label=a&label=b`); empty values are left out. */
  query?: Record<string, QueryValue>;
  headers?: Record<string, string>;
  body?: string | Buffer;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export class MessageApi {
  constructor(private readonly profile: ResolvedProfile) {}

  /** The full URL a request goes to (used by previews, "copy as curl" and webhook URLs). */
  url(path: string, query?: Record<string, QueryValue>): string {
    const base = this.profile.settings.messagesUrl;
    if (!base) {
      throw new BridgeError({
        code: 'NOT_CONFIGURED',
        message: `Profile "${this.profile.settings.name}" has no message API URL. Set one in Profiles.`,
      });
    }
    return `${joinUrl(base, path)}${encodeQuery(query)}`;
  }

  /** The bearer token, for main-side uses only (never returned to the renderer). */
  token(): string {
    const token = this.profile.secret('messageToken');
    if (!token) {
      throw new BridgeError({
        code: 'NOT_CONFIGURED',
        message: `Profile "${this.profile.settings.name}" has no message token. Add it in Profiles.`,
      });
    }
    return token;
  }

  /** Sends a request; a non-2xx answer becomes SERVICE_ERROR with the service's status and text. */
  async request(req: MessageApiRequest): Promise<ServiceResponse> {
    const response = await serviceRequest({
      url: this.url(req.path, req.query),
      method: req.method ?? 'GET',
      headers: { authorization: `Bearer ${this.token()}`, ...req.headers },
      body: req.body,
      timeoutMs: req.timeoutMs,
      signal: req.signal,
    });
    if (response.status < 200 || response.status >= 300) {
      throw new BridgeError({
        code: 'SERVICE_ERROR',
        status: response.status,
        message: serviceErrorText(response),
      });
    }
    return response;
  }

  /** request() and parse a JSON body (an empty body is `null`). */
  async json<T>(req: MessageApiRequest): Promise<{ status: number; body: T }> {
    const response = await this.request(req);
    const text = response.body.toString('utf8');
    if (!text.trim()) return { status: response.status, body: null as T };
    try {
      return { status: response.status, body: JSON.parse(text) as T };
    } catch {
      throw new BridgeError({
        code: 'SERVICE_ERROR',
        status: response.status,
        message: `The service answered with something that is not JSON: ${text.slice(0, 200)}`,
      });
    }
  }
}

export function encodeQuery(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) for (const item of value) params.append(key, String(item));
    else params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}
