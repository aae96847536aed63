// Profiles as every part sees them. Secrets are never part of these types on the renderer side: a
// profile carries only whether each secret is set and a masked hint.
import { z } from 'zod';
import { isHttpUrl } from './urls';

export const ENVIRONMENTS = ['local', 'dev', 'prod'] as const;
export type EnvironmentTag = (typeof ENVIRONMENTS)[number];

/** Message + workflow API regions of the real service; a profile may also use any custom URL. */
export const MESSAGE_REGIONS = [
  { id: 'eu-central-1', label: 'EU (eu-central-1)', url: 'https://qstash.upstash.io' },
  { id: 'us-east-1', label: 'US (us-east-1)', url: 'https://qstash-us-east-1.upstash.io' },
] as const;

export const SECRET_NAMES = [
  'messageToken',
  'currentSigningKey',
  'nextSigningKey',
  'kvToken',
  'kvReadOnlyToken',
] as const;
export type SecretName = (typeof SECRET_NAMES)[number];

export const SECRET_LABELS: Record<SecretName, string> = {
  messageToken: 'Message token',
  currentSigningKey: 'Current signing key',
  nextSigningKey: 'Next signing key',
  kvToken: 'KV standard token',
  kvReadOnlyToken: 'KV read-only token',
};

export const LOCAL_PROFILE_ID = 'local';

const httpUrl = z.string().trim().refine(isHttpUrl, 'must be an http:// or https:// URL');

/** An optional URL: empty string means "not set". */
const optionalHttpUrl = z.union([z.literal(''), httpUrl]);

/** The editable, non-secret part of a profile. */
export const profileSettingsSchema = z.object({
  name: z.string().trim().min(1, 'a profile needs a name').max(60, 'at most 60 characters'),
  env: z.enum(ENVIRONMENTS),
  messagesUrl: optionalHttpUrl,
  kvUrl: optionalHttpUrl,
  /** main refuses every call that writes to a service. */
  readOnly: z.boolean(),
  /** Ask before dangerous actions (always on for prod, whatever this says). */
  confirmDangerous: z.boolean(),
});
export type ProfileSettings = z.infer<typeof profileSettingsSchema>;

/**
 * Secret changes sent by the renderer when saving a form: a string sets the secret, `null` clears it,
 * a missing key keeps what is stored. Tokens travel renderer → main once, when the user types them.
 */
const secretValue = z
  .string()
  .trim()
  .min(1, 'empty; use "clear" to remove a secret')
  .max(4096)
  .nullable()
  .optional();
export const secretChangesSchema = z.object({
  messageToken: secretValue,
  currentSigningKey: secretValue,
  nextSigningKey: secretValue,
  kvToken: secretValue,
  kvReadOnlyToken: secretValue,
}) satisfies z.ZodType<Partial<Record<SecretName, string | null | undefined>>>;
export type SecretChanges = Partial<Record<SecretName, string | null>>;

export interface SecretStatus {
  hasValue: boolean;
  /** e.g. `••••9f3a`; null when unset. Never enough to reconstruct the secret. */
  hint: string | null;
}

export interface ProfileView extends ProfileSettings {
  id: string;
  /** The built-in Local profile: points at the local stack, cannot be edited or deleted. */
  builtIn: boolean;
  secrets: Record<SecretName, SecretStatus>;
  createdAt: number;
  updatedAt: number;
}

/**
 * The tokens each URL is sent (the signing keys never leave main: they verify deliveries). A stored token
 * belongs to the host it was saved for: when a URL moves to another origin, main keeps the profile only if its
 * tokens are typed again or cleared in the same save, so that nothing the page sends can point a stored token at
 * a host of its choosing (see `tokensToRetype`).
 */
export const TOKENS_SENT_TO: readonly { url: 'messagesUrl' | 'kvUrl'; tokens: readonly SecretName[] }[] = [
  { url: 'messagesUrl', tokens: ['messageToken'] },
  { url: 'kvUrl', tokens: ['kvToken', 'kvReadOnlyToken'] },
];

/** `scheme://host:port` of a URL; '' for an empty or unparsable one (nothing is sent there). */
export function originOf(url: string): string {
  try {
    return url.trim() === '' ? '' : new URL(url.trim()).origin;
  } catch {
    return '';
  }
}

/**
 * The stored tokens a change of settings would send to another origin without being typed again: each URL
 * that moves to a new (non-empty) origin, and each of its tokens that is stored and neither set nor cleared by
 * the same save.
 */
export function tokensToRetype(
  before: Pick<ProfileSettings, 'messagesUrl' | 'kvUrl'>,
  after: Partial<Pick<ProfileSettings, 'messagesUrl' | 'kvUrl'>>,
  isStored: (name: SecretName) => boolean,
  changes: SecretChanges,
): { url: 'messagesUrl' | 'kvUrl'; from: string; to: string; tokens: SecretName[] }[] {
  const found = [];
  for (const { url, tokens } of TOKENS_SENT_TO) {
    const next = after[url];
    if (next === undefined) continue;
    const from = originOf(before[url]);
    const to = originOf(next);
    if (to === '' || to === from) continue;
    const kept = tokens.filter((name) => isStored(name) && changes[name] === undefined);
    if (kept.length > 0) found.push({ url, from, to, tokens: kept });
  }
  return found;
}

/** The sentence main refuses such a save with, and the profile form shows before it is saved. */
export function retypeMessage(item: { from: string; to: string; tokens: readonly SecretName[] }): string {
  const names = item.tokens.map((name) => SECRET_LABELS[name]).join(' and ');
  const them = item.tokens.length === 1 ? 'it' : 'them';
  const saved = item.from === '' ? 'saved before this URL was set' : `saved for ${item.from}`;
  return (
    `The ${names} ${item.tokens.length === 1 ? 'was' : 'were'} ${saved}. Type ${them} again, or clear ` +
    `${them}, to use ${item.to}: a stored token is only sent to the host it was saved for.`
  );
}

/** What export/import carries: settings only, never secrets. */
export interface ProfileExport {
  format: 'switchyard.profiles';
  version: 1;
  exportedAt: string;
  profiles: ProfileSettings[];
}

export const profileExportSchema = z.object({
  format: z.literal('switchyard.profiles'),
  version: z.literal(1),
  exportedAt: z.string().optional(),
  profiles: z.array(profileSettingsSchema).max(500),
});
