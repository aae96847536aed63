// The transport the message and workflow clients in main ride on (messages/client.ts, workflows/client.ts;
// kv/client.ts has its own, on the same service-http.ts, for the REST API's command bodies): a base URL and bearer token from the profile, NOT_CONFIGURED when either is missing, and
// a non-2xx answer turned into SERVICE_ERROR with the service's own text. It knows no paths: those live in
// the service clients. The renderer never builds URLs or headers itself.
import { BridgeError } from '../../../shared/bridge/errors';
import { serviceError, serviceRequest, type ServiceResponse } from './service-http';

export type QueryValue = string | number | boolean | undefined | null | readonly (string | number)[];

export interface ServiceApiRequest {
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

/** Where one service of a profile lives, and the words for what is missing when it is not set up. */
export interface ServiceEndpoint {
  baseUrl: string | undefined;
  token: string | undefined;
  profileName: string;
  /** e.g. `message API`, as in "has no message API URL". */
  service: string;
  /** e.g. `message token`, as in "has no message token". */
  tokenName: string;
  /** Why the service cannot be reached at all right now (the Local profile's stack is down): said instead. */
  unavailable?: string;
}

export class ServiceApi {
  constructor(private readonly endpoint: ServiceEndpoint) {}

  /** The full URL a request goes to (used by previews, "copy as curl" and webhook URLs). */
  url(path: string, query?: Record<string, QueryValue>): string {
    const { baseUrl, profileName, service } = this.endpoint;
    this.assertAvailable();
    if (!baseUrl) {
      throw new BridgeError({
        code: 'NOT_CONFIGURED',
        message: `Profile "${profileName}" has no ${service} URL. Set one in Profiles.`,
      });
    }
    return `${joinUrl(baseUrl, path)}${encodeQuery(query)}`;
  }

  /** The bearer token, for main-side uses only (never returned to the renderer). */
  token(): string {
    this.assertAvailable();
    const { token, profileName, tokenName } = this.endpoint;
    if (!token) {
      throw new BridgeError({
        code: 'NOT_CONFIGURED',
        message: `Profile "${profileName}" has no ${tokenName}. Add it in Profiles.`,
      });
    }
    return token;
  }

  /** The Local profile while its stack is not running: say so, not that the profile lacks a URL or token. */
  private assertAvailable(): void {
    const { unavailable } = this.endpoint;
    if (unavailable) {
      throw new BridgeError({ code: 'UNREACHABLE', message: unavailable, networkCode: 'NOT_SENT' });
    }
  }

  /**
   * Sends a request and answers whatever status came back. Without `requireToken` a missing token just
   * sends no authorization header (connection tests report what the service says to that).
   */
  send(req: ServiceApiRequest, requireToken = false): Promise<ServiceResponse> {
    const url = this.url(req.path, req.query);
    const token = requireToken ? this.token() : this.endpoint.token;
    return serviceRequest({
      url,
      method: req.method ?? 'GET',
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...req.headers },
      body: req.body,
      timeoutMs: req.timeoutMs,
      signal: req.signal,
    });
  }

  /** Sends a request; a non-2xx answer becomes SERVICE_ERROR with the service's status and text. */
  async request(req: ServiceApiRequest): Promise<ServiceResponse> {
    const response = await this.send(req, true);
    if (response.status < 200 || response.status >= 300) {
      throw serviceError(response);
    }
    return response;
  }

  /** request() and parse a JSON body (an empty body is `null`). */
  async json<T>(req: ServiceApiRequest): Promise<{ status: number; body: T }> {
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

/** Joins a base URL (which may carry a path prefix) and an absolute API path. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}${path}`;
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
