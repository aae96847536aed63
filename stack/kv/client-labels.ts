// Who each of the bridge's Redis connections works for, so that MONITOR lines name the REST caller
// (issue 19 item 5). Redis names a client by its address as Redis sees it — the bridge's own end of the
// socket, the same for every HTTP caller the bridge serves — so the bridge keeps one set of connections per
// caller (its IP and the token's user) and labels each connection with that caller while it is open.
import type { RedisConnection } from './connection';

export class ClientLabels {
  private readonly byAddress = new Map<string, string>();

  /** Labels `connection` (Redis's `ip:port` for it) with `label` until it closes. */
  track(connection: RedisConnection, label: string): void {
    const address = connection.clientAddress;
    if (address === undefined) return;
    this.byAddress.set(address, label);
    connection.onClose(() => {
      if (this.byAddress.get(address) === label) this.byAddress.delete(address);
    });
  }

  /** The caller that `address` (as a MONITOR line shows it) works for, if it is one of the bridge's. */
  of(address: string): string | undefined {
    return this.byAddress.get(address);
  }
}

/** A caller as MONITOR lines show it: `127.0.0.1 default`, `127.0.0.1 read-only`, `10.0.0.7 alice`. */
export function callerLabel(remoteAddress: string | undefined, user: string): string {
  const ip = (remoteAddress ?? 'unknown').replace(/^::ffff:/, '');
  return `${ip} ${user}`;
}
