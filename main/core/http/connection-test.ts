// "Test connection" for a profile: one cheap authenticated request per service (the message client's
// probe, the KV client's PING), reported as reachable / auth ok or failed (with the service's own text) / latency.
import type { ConnectionTestResult } from '../../../shared/bridge/procedures/profiles';
import { BridgeError } from '../../../shared/bridge/errors';
import type { ResolvedProfile } from '../profiles/profiles-service';
import { KvClient } from '../services/kv/client';
import { MessageClient } from '../services/messages/client';
import { serviceErrorText, type ServiceResponse } from './service-http';

const TIMEOUT_MS = 10_000;

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
      message: profile.unavailable ?? `No ${what} URL is set for this profile.`,
      url: '',
    };
  }
  const client =
    service === 'messages' ? MessageClient.forProfile(profile) : new KvClient(profile, 'standard');
  const url = client.probeUrl();
  let response: ServiceResponse;
  try {
    response = await client.probe(TIMEOUT_MS);
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
