// A live stream the user keeps open (the KV monitor, the pub/sub stream) that lost its service or the bridge
// — the connection dropped or timed out: the service restarted, the network went — is opened again by itself,
// after 1 s, then 2, 4, … at most every 30 s while it keeps failing. The screen picks up again when the
// service is back without anyone pressing Start, and a service that stays down gets a few requests a
// minute. A refusal (a wrong token, a command not allowed) still ends the stream: it would answer the same.
// (One pub/sub subscription lost while the others stream is subscribed again by main itself: pubsub.ts.)
import { useCallback, useEffect, useState } from 'react';
import type { BridgeErrorData } from '../../../shared/bridge/errors';
import { reconnectDelay } from '../../../shared/reconnect-delay';
import { BRIDGE_LOST } from '../bridge/transport';
import { Callout } from './misc';

/** The stream ended because its connection was lost, not because the service refused it. */
export function connectionLost(error: BridgeErrorData | undefined): boolean {
  return error?.code === 'UNREACHABLE' || error?.code === 'TIMEOUT';
}

export { reconnectDelay };

export interface Reconnect {
  /** Changes each time the stream is to be opened again: a dependency of the effect that opens it. */
  attempt: number;
  /** The loss it is reconnecting after, until the service confirms the stream again. */
  lost: BridgeErrorData | undefined;
  /** The stream ended with `error`: true when it is opened again by itself (the screen keeps it on). */
  ended: (error: BridgeErrorData | undefined) => boolean;
  /** The service confirmed the stream: a later loss starts again from 1 s. */
  opened: () => void;
  /** The user stopped the stream or starts it afresh: no reconnect pending. */
  reset: () => void;
}

export function useReconnect(): Reconnect {
  const [state, setState] = useState<{ attempt: number; failures: number; lost?: BridgeErrorData }>({
    attempt: 0,
    failures: 0,
  });
  const { lost, failures } = state;
  useEffect(() => {
    if (!lost) return;
    const timer = setTimeout(
      () => setState((now) => ({ ...now, attempt: now.attempt + 1 })),
      reconnectDelay(failures),
    );
    return () => clearTimeout(timer);
  }, [lost, failures]);
  const ended = useCallback((error: BridgeErrorData | undefined) => {
    const again = connectionLost(error);
    setState((now) =>
      again ? { ...now, lost: error, failures: now.failures + 1 } : { attempt: now.attempt, failures: 0 },
    );
    return again;
  }, []);
  const opened = useCallback(
    () => setState((now) => (now.lost || now.failures ? { attempt: now.attempt, failures: 0 } : now)),
    [],
  );
  return { attempt: state.attempt, lost, ended, opened, reset: opened };
}

/** What a stream that is reconnecting shows: the loss, and that nothing needs doing. */
export function ReconnectingCallout({ lost, what }: { lost: BridgeErrorData | undefined; what: string }) {
  if (!lost) return null;
  // The page's own connection to main (the browser host's socket) dropped, not the service's.
  const bridge = lost === BRIDGE_LOST;
  return (
    <Callout tone="warning" title={`Lost the connection; reconnecting ${what}…`}>
      {bridge ? "The page's connection to Switchyard's back end dropped." : lost.message} It opens again by
      itself once {bridge ? 'the back end' : 'the service'} answers.
    </Callout>
  );
}
