// When a service refuses the profile (a wrong or missing token), every screen says what to do beside the
// service's own text: edit the profile, test the connection. ServiceGate puts the screen's profile and
// service in context; ErrorCallout, QueryView and ListBody show AccessHelp for such errors, so no screen
// needs its own copy — and a screen shows the error alone (no "No keys match", no counts of 0).
import { createContext, useContext, useState } from 'react';
import type { BridgeErrorData } from '../../../shared/bridge/errors';
import type { ConnectionTestResult } from '../../../shared/bridge/procedures/profiles';
import { errorMessage } from '../bridge/client';
import { useBridge } from '../bridge/react';
import { Button } from './Button';
import { PlugIcon } from './icons';

export interface ServiceAccess {
  profile: { id: string; name: string };
  /** The API the screen talks to (workflows use the message API and its token). */
  service: 'messages' | 'kv';
}

export const ServiceAccessContext = createContext<ServiceAccess | null>(null);

/** Why the service would not serve this profile, or undefined for any other error. */
export function accessProblem(error: unknown): 'refused' | 'forbidden' | 'missing' | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, status } = error as Partial<BridgeErrorData>;
  if (code === 'NOT_CONFIGURED') return 'missing';
  if (code !== 'SERVICE_ERROR') return undefined;
  if (status === 401) return 'refused';
  if (status === 403) return 'forbidden';
  return undefined;
}

const TOKEN_NAME = { messages: 'message token', kv: 'KV token' } as const;

/** What to do about an access error: a sentence and the two ways to act on it (nothing for other errors). */
export function AccessHelp({ error }: { error: unknown }) {
  const access = useContext(ServiceAccessContext);
  const problem = accessProblem(error);
  if (!access || !problem) return null;
  const token = TOKEN_NAME[access.service];
  const sentence =
    problem === 'refused'
      ? `The service refused the ${token} of profile “${access.profile.name}”: it is wrong, expired or for another database. Fix it in the profile, then test the connection.`
      : problem === 'forbidden'
        ? `The ${token} of profile “${access.profile.name}” is not allowed to do this (a read-only token?). Use a token with the rights it needs.`
        : `Profile “${access.profile.name}” lacks what this needs. Add it in the profile.`;
  return (
    <span className="stack access-help" style={{ gap: 8, marginTop: 8 }} data-testid="access-help">
      <span>{sentence}</span>
      <span className="row row-wrap">
        <a className="btn btn-sm" href={`#/profiles/${encodeURIComponent(access.profile.id)}`}>
          Edit profile
        </a>
        <TestConnection access={access} />
      </span>
    </span>
  );
}

function TestConnection({ access }: { access: ServiceAccess }) {
  const bridge = useBridge();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<ConnectionTestResult | string | null>(null);
  const run = async () => {
    setBusy(true);
    try {
      setResult(
        await bridge.call('profiles.testConnection', { id: access.profile.id, service: access.service }),
      );
    } catch (error) {
      setResult(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button size="sm" icon={<PlugIcon />} busy={busy} onClick={() => void run()}>
        Test connection
      </Button>
      {result === null ? null : (
        <span className="muted" role="status" data-testid="access-test-result">
          {typeof result === 'string'
            ? result
            : result.auth === 'ok'
              ? `Connected (HTTP ${result.status ?? 200}): the token works now — refresh this screen.`
              : `${result.reachable ? `HTTP ${result.status ?? '?'}` : 'Not reachable'}: ${result.message}`}
        </span>
      )}
    </>
  );
}
