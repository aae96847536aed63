// Endpoints pasted as text, one per line: `name url`, `url name`, `name,url` or a bare URL. Each line is
// checked the way the service checks it, and compared with the group's current endpoints, so the dialog
// can show what will be added, what changes name, and what is wrong — before anything is sent.
import { checkName } from '../../../../shared/messages/names';
import type { UrlGroupEndpoint } from '../../../../shared/messages/types';
import { isHttpUrl } from '../../../../shared/urls';

export type EndpointLineStatus = 'add' | 'rename' | 'unchanged' | 'invalid';

export interface EndpointLine {
  /** 1-based line number in the pasted text. */
  line: number;
  raw: string;
  status: EndpointLineStatus;
  endpoint?: UrlGroupEndpoint;
  /** Why the line is invalid, or what a rename changes. */
  note?: string;
}

export interface ParsedEndpoints {
  lines: EndpointLine[];
  /** What to send: new endpoints and renames. */
  toSend: UrlGroupEndpoint[];
  invalid: number;
}

function parseLine(raw: string): { endpoint?: UrlGroupEndpoint; error?: string } {
  const tokens = raw
    .split(/[\s,;]+/)
    .map((token) => token.trim())
    .filter(Boolean);
  if (tokens.length > 2) return { error: 'expected “name url” or a URL' };
  const urls = tokens.filter(isHttpUrl);
  if (urls.length === 0) {
    const looksLikeUrl = tokens.find((token) => token.includes('://') || token.includes('.'));
    return {
      error: looksLikeUrl
        ? `“${looksLikeUrl}” is not an http:// or https:// URL`
        : 'no URL on this line (URLs start with http:// or https://)',
    };
  }
  if (urls.length === 2) return { error: 'two URLs on one line' };
  const url = urls[0]!;
  const name = tokens.find((token) => token !== url);
  if (name !== undefined) {
    const problem = checkName('URL group', name);
    if (problem) return { error: problem.replace('URL group', 'endpoint') };
    return { endpoint: { name, url } };
  }
  return { endpoint: { url } };
}

export function parseEndpoints(text: string, existing: readonly UrlGroupEndpoint[] = []): ParsedEndpoints {
  const lines: EndpointLine[] = [];
  const toSend: UrlGroupEndpoint[] = [];
  const seenUrls = new Map<string, number>();
  const seenNames = new Map<string, number>();
  text.split(/\r?\n/).forEach((rawLine, index) => {
    const raw = rawLine.trim();
    if (raw === '' || raw.startsWith('#')) return;
    const line = index + 1;
    const { endpoint, error } = parseLine(raw);
    if (!endpoint) {
      lines.push({ line, raw, status: 'invalid', note: error });
      return;
    }
    const duplicateUrl = seenUrls.get(endpoint.url);
    if (duplicateUrl !== undefined) {
      lines.push({ line, raw, status: 'invalid', endpoint, note: `same URL as line ${duplicateUrl}` });
      return;
    }
    const duplicateName = endpoint.name ? seenNames.get(endpoint.name) : undefined;
    if (duplicateName !== undefined) {
      lines.push({ line, raw, status: 'invalid', endpoint, note: `same name as line ${duplicateName}` });
      return;
    }
    const takenBy = endpoint.name
      ? existing.find((current) => current.name === endpoint.name && current.url !== endpoint.url)
      : undefined;
    if (takenBy) {
      lines.push({
        line,
        raw,
        status: 'invalid',
        endpoint,
        note: `the group already has an endpoint named “${endpoint.name}” (${takenBy.url})`,
      });
      return;
    }
    seenUrls.set(endpoint.url, line);
    if (endpoint.name) seenNames.set(endpoint.name, line);
    const current = existing.find((candidate) => candidate.url === endpoint.url);
    if (!current) {
      lines.push({ line, raw, status: 'add', endpoint });
      toSend.push(endpoint);
    } else if (endpoint.name && endpoint.name !== current.name) {
      lines.push({
        line,
        raw,
        status: 'rename',
        endpoint,
        note: current.name ? `renames “${current.name}”` : 'names an existing endpoint',
      });
      toSend.push(endpoint);
    } else {
      lines.push({ line, raw, status: 'unchanged', endpoint, note: 'already in the group' });
    }
  });
  return { lines, toSend, invalid: lines.filter((line) => line.status === 'invalid').length };
}
