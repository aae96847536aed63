// The renderer's Content-Security-Policy, written once for every place that serves the renderer: the
// Electron app:// protocol (main/electron/security.ts), the browser host's static files
// (main/web/static-files.ts), the built page's <meta> tag and the Vite dev server (vite.config.ts).
// Each host takes this policy and varies only what its transport needs (see the options).

export interface CspOptions {
  /**
   * Origins the page may open sockets to besides its own. The browser host lists its bridge socket's
   * ws:// origins: 'self' covers ws: only in browsers that implement CSP 3's scheme upgrade.
   */
  connect?: readonly string[];
  /**
   * 'meta' for a <meta http-equiv> tag, which cannot carry frame-ancestors (browsers ignore it there
   * and log an error on every page load).
   */
  delivery?: 'header' | 'meta';
  /**
   * The Vite dev server only: React Refresh injects an inline module preamble, so inline script is
   * allowed there. Never in anything that is built or shipped.
   */
  dev?: boolean;
}

/** Directive → sources, in the order they are written. */
export function cspDirectives(options: CspOptions = {}): [string, string[]][] {
  const directives: [string, string[]][] = [
    // Nothing unless listed below.
    ['default-src', ["'none'"]],
    ['script-src', options.dev ? ["'self'", "'unsafe-inline'"] : ["'self'"]],
    // Code editors inject <style> elements at run time; scripts stay strictly same-origin.
    ['style-src', ["'self'", "'unsafe-inline'"]],
    ['img-src', ["'self'", 'data:']],
    ['font-src', ["'self'", 'data:']],
    // The renderer talks only to its own host (IPC in Electron, the bridge socket in the browser).
    ['connect-src', ["'self'", ...(options.connect ?? [])]],
    ['worker-src', ["'self'"]],
    ['frame-src', ["'none'"]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'none'"]],
    ['form-action', ["'none'"]],
  ];
  if (options.delivery !== 'meta') directives.push(['frame-ancestors', ["'none'"]]);
  return directives;
}

/** The policy as a header (or meta content) value. */
export function contentSecurityPolicy(options: CspOptions = {}): string {
  return cspDirectives(options)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ');
}
