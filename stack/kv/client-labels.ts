// Who each of the bridge's Redis connections works for, so that MONITOR lines name the REST caller
// (issue 19 item 5). Redis names a client by its address as Redis sees it — the bridge's own end of the
// socket, the same for every HTTP caller the bridge serves — so the bridge keeps one set of connections per
// caller (its IP and the token's user) and labels each connection with that caller while it is open. A
// caller label is never empty (`callerLabel` always has an IP and a user), so the empty label marks the
// connections whose lines are left out.
import type { RedisConnection } from './connection';

/** The label of the bridge's own connections whose commands MONITOR leaves out (never a caller's: see below). */
const UNSHOWN = '';

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

  /**
   * Marks `connection` as the bridge's own work, left out of MONITOR until it closes: the reads the search
   * emulation makes to answer a SEARCH command, which a client never sent (the command itself shows instead).
   */
  hide(connection: RedisConnection): void {
    this.track(connection, UNSHOWN);
  }

  /** Whether `address` is one of the connections `hide` marked. */
  hidden(address: string): boolean {
    return this.byAddress.get(address) === UNSHOWN;
  }

  /** The caller that `address` (as a MONITOR line shows it) works for, if it is one of the bridge's. */
  of(address: string): string | undefined {
    const label = this.byAddress.get(address);
    return label === UNSHOWN ? undefined : label;
  }
}

/** A caller as MONITOR lines show it: `127.0.0.1 default`, `127.0.0.1 read-only`, `10.0.0.7 alice`. */
export function callerLabel(remoteAddress: string | undefined, user: string): string {
  const ip = (remoteAddress ?? 'unknown').replace(/^::ffff:/, '');
  return `${ip} ${user}`;
}
