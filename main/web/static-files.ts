// Serves the built renderer (out/renderer) with a strict CSP and no way out of its folder.
import { createReadStream, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { contentSecurityPolicy } from '../../shared/csp';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/**
 * The renderer's one policy (shared/csp.ts); the bridge socket's ws:// origins are listed because
 * 'self' covers ws: only in browsers that implement CSP 3.
 */
export function browserHostPolicy(origins: readonly string[]): string {
  return contentSecurityPolicy({ connect: origins.map((origin) => origin.replace(/^http/, 'ws')) });
}

export function serveStatic(root: string, csp: string, req: IncomingMessage, res: ServerResponse): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD' }).end();
    return;
  }
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://host').pathname);
  } catch {
    res.writeHead(400).end();
    return;
  }
  const relative = normalize(pathname === '/' ? '/index.html' : pathname);
  const file = join(root, relative);
  if (!file.startsWith(root + sep) || relative.includes('\0')) {
    res.writeHead(404).end();
    return;
  }
  let size: number;
  try {
    const stat = statSync(file);
    if (!stat.isFile()) throw new Error('not a file');
    size = stat.size;
  } catch {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
    return;
  }
  const isHtml = extname(file) === '.html';
  res.writeHead(200, {
    'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    'content-length': size,
    // Hashed asset names never change content; the HTML must always be fresh.
    'cache-control': isHtml ? 'no-store' : 'public, max-age=31536000, immutable',
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'x-frame-options': 'DENY',
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  createReadStream(file).pipe(res);
}
