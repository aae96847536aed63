// "Test connection" for a profile: one cheap authenticated request per service, reported as reachable /
// auth ok or failed (with the service's own text) / latency.
import type { ConnectionTestResult } from '../../../shared/bridge/procedures/profiles';
import { BridgeError } from '../../../shared/bridge/errors';
import type { ResolvedProfile } from '../profiles/profiles-service';
import { serviceErrorText, serviceRequest, type ServiceResponse } from './service-http';

export async function testConnection(
  profile: ResolvedProfile,
  service: 'messages' | 'kv',
): Promise<ConnectionTestResult> {
  const base = service === 'messages' ? profile.settings.messagesUrl : profile.settings.kvUrl;
  const token = profile.secret(service === 'messages' ? 'messageToken' : 'kvToken');
  const what = service === 'messages' ? 'message API' : 'KV REST';
  if (!base) {
    return {
      service,
      reachable: false,
      auth: 'unknown',
      message: `No ${what} URL is set for this profile.`,
      url: '',
    };
  }
  const url = service === 'messages' ? joinUrl(base, '/v2/queues') : joinUrl(base, '/');
  let response: ServiceResponse;
  try {
    response = await serviceRequest({
      url,
      method: service === 'messages' ? 'GET' : 'POST',
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(service === 'kv' ? { 'content-type': 'application/json' } : {}),
      },
      body: service === 'kv' ? '["PING"]' : undefined,
      timeoutMs: 10_000,
    });
  } catch (error) {
    const message = error instanceof BridgeError ? error.message : String(error);
    return { service, reachable: false, auth: 'unknown', message, url };
  }
  const latencyMs = Math.round(response.latencyMs);
  const answered = { service, reachable: true, status: response.status, latencyMs, url };
  if (response.status >= 200 && response.status < 300) {
    return { ...answered, auth: 'ok', message: `Connected, token accepted (${latencyMs} ms).` };
  }
  const text = serviceErrorText(response);
  if (response.status === 401 || response.status === 403) {
    const hint = token ? '' : ' No token is set for this service.';
    return {
      ...answered,
      auth: 'failed',
      message: `Token rejected (HTTP ${response.status}): ${text}.${hint}`,
    };
  }
  return { ...answered, auth: 'unknown', message: `Unexpected HTTP ${response.status}: ${text}` };
}

/** Joins a base URL (which may carry a path prefix) and an absolute API path. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}${path}`;
}
