/** How to get redis-server; part of every message that says Redis is missing. */
export const REDIS_INSTALL_HINT =
  'install it (Debian/Ubuntu: apt-get install redis-server, macOS: brew install redis) or pass --redis-url';

/** Thrown when Redis is unavailable; its message is shown to users verbatim (with the install command). */
export class KvUnavailableError extends Error {
  override name = 'KvUnavailableError';
}
