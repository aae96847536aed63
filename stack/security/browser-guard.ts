// Keeps web pages out of the local stack. Its default credentials are well known (so SDKs in dev mode
// adopt it), which means a token proves nothing: any page open in the user's browser could otherwise
// drive the stack — by DNS rebinding (a hostile name resolving to 127.0.0.1, so requests look
// same-origin) or by plain cross-site requests (an <img> or form needs no CORS to *send*, e.g.
// GET /flushall?_token=…). So, while the stack listens on loopback:
//   - the Host header must name this machine (localhost, 127.x, ::1, *.localhost) or a host the user
//     allowed with --allow-host (a tunnel to test webhooks, say);
//   - a browser request from another site is refused: Fetch Metadata `Sec-Fetch-Site: cross-site`, or an
//     Origin that is not a loopback origin.
// SDKs and curl send neither Origin nor Sec-Fetch-Site, so they are unaffected; a web app in local
// development (http://localhost:3000) keeps working.
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

export interface BrowserGuardOptions {
  /** The address the server is bound to; the guard applies only to loopback binds. */
  bindHost: string;
  /** Extra Host names to accept (from --allow-host), without port. */
  allowedHosts?: readonly string[];
}

/** Returns why a request is refused, or null to let it through. */
export type BrowserGuard = (req: IncomingMessage) => string | null;

export function isLoopbackHost(hostname: string): boolean {
  const name = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (name === '::1') return true;
  return isIP(name) === 4 && name.startsWith('127.');
}

export function createBrowserGuard(options: BrowserGuardOptions): BrowserGuard {
  if (!isLoopbackHost(options.bindHost)) return () => null;
  const allowed = new Set((options.allowedHosts ?? []).map((host) => host.toLowerCase()));

  const refuseHost = (hostHeader: string): string | null => {
    const hostname = hostnameOf(hostHeader);
    if (hostname === null || (!isLoopbackHost(hostname) && !allowed.has(hostname))) {
      return `Host "${hostHeader}" is not this machine. Requests must address 127.0.0.1 or localhost (start the stack with --allow-host ${hostname ?? '<name>'} to accept that name, e.g. for a tunnel).`;
    }
    return null;
  };
  // Why a cache: every request carries a Host header, nearly always one of a few strings, and parsing it with
  // URL was 1.6 % of the stack's CPU per message (profile of `bench messages`). The verdict for a given header
  // never changes; the map is cleared when full so that a client inventing names cannot grow it.
  const hostVerdicts = new Map<string, string | null>();
  return (req) => {
    const hostHeader = req.headers.host;
    if (hostHeader) {
      let refused = hostVerdicts.get(hostHeader);
      if (refused === undefined) {
        refused = refuseHost(hostHeader);
        if (hostVerdicts.size >= 100) hostVerdicts.clear();
        hostVerdicts.set(hostHeader, refused);
      }
      if (refused !== null) return refused;
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !isLoopbackOrigin(origin, allowed)) {
      return `requests from web pages on ${origin} are refused: the local stack only serves this machine`;
    }
    if (req.headers['sec-fetch-site'] === 'cross-site' && origin === undefined) {
      return 'cross-site requests from web pages are refused: the local stack only serves this machine';
    }
    return null;
  };
}

function hostnameOf(hostHeader: string): string | null {
  try {
    return new URL(`http://${hostHeader}`).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  } catch {
    return null;
  }
}

function isLoopbackOrigin(origin: string, allowed: ReadonlySet<string>): boolean {
  try {
    const url = new URL(origin);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    const hostname = url.hostname.replace(/^\[|\]$/g, '');
    return isLoopbackHost(hostname) || allowed.has(hostname.toLowerCase());
  } catch {
    // "null" (file:// pages, sandboxed frames) and garbage.
    return false;
  }
}
