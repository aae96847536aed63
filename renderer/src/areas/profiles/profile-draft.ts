// The profile form's state and its translation to what main expects. Secrets are write-only here: the
// form starts every secret as "keep", and only a typed value ("set") or an explicit "clear" is sent.
import {
  type EnvironmentTag,
  MESSAGE_REGIONS,
  type ProfileSettings,
  type ProfileView,
  SECRET_NAMES,
  type SecretChanges,
  type SecretName,
} from '../../../../shared/profiles';

export type RegionChoice = (typeof MESSAGE_REGIONS)[number]['id'] | 'custom';

export type SecretEdit = { mode: 'keep' } | { mode: 'set'; value: string } | { mode: 'clear' };

export interface ProfileDraft {
  name: string;
  env: EnvironmentTag;
  region: RegionChoice;
  /** Used when region is 'custom'. */
  customMessagesUrl: string;
  kvUrl: string;
  readOnly: boolean;
  confirmDangerous: boolean;
  secrets: Record<SecretName, SecretEdit>;
}

function keepAll(): Record<SecretName, SecretEdit> {
  return Object.fromEntries(SECRET_NAMES.map((name) => [name, { mode: 'keep' }])) as Record<
    SecretName,
    SecretEdit
  >;
}

export function emptyDraft(): ProfileDraft {
  return {
    name: '',
    env: 'dev',
    region: 'eu-central-1',
    customMessagesUrl: '',
    kvUrl: '',
    readOnly: false,
    confirmDangerous: true,
    secrets: keepAll(),
  };
}

export function regionOf(url: string): RegionChoice {
  const normalized = url.trim().replace(/\/+$/, '');
  return MESSAGE_REGIONS.find((region) => region.url === normalized)?.id ?? 'custom';
}

export function draftFromProfile(profile: ProfileView): ProfileDraft {
  const region = profile.messagesUrl ? regionOf(profile.messagesUrl) : 'custom';
  return {
    name: profile.name,
    env: profile.env,
    region,
    customMessagesUrl: region === 'custom' ? profile.messagesUrl : '',
    kvUrl: profile.kvUrl,
    readOnly: profile.readOnly,
    confirmDangerous: profile.confirmDangerous,
    secrets: keepAll(),
  };
}

export function messagesUrlOf(draft: ProfileDraft): string {
  if (draft.region === 'custom') return draft.customMessagesUrl.trim();
  return MESSAGE_REGIONS.find((region) => region.id === draft.region)!.url;
}

export function settingsFromDraft(draft: ProfileDraft): ProfileSettings {
  return {
    name: draft.name.trim(),
    env: draft.env,
    messagesUrl: messagesUrlOf(draft),
    kvUrl: draft.kvUrl.trim(),
    readOnly: draft.readOnly,
    // Production always asks before dangerous actions.
    confirmDangerous: draft.env === 'prod' ? true : draft.confirmDangerous,
  };
}

export function secretChangesFromDraft(draft: ProfileDraft): SecretChanges {
  const changes: SecretChanges = {};
  for (const name of SECRET_NAMES) {
    const edit = draft.secrets[name];
    if (edit.mode === 'set' && edit.value.trim()) changes[name] = edit.value.trim();
    if (edit.mode === 'clear') changes[name] = null;
  }
  return changes;
}

/** Field problems the user can fix before saving (main validates again). */
export function validateDraft(
  draft: ProfileDraft,
): Partial<Record<'name' | 'messagesUrl' | 'kvUrl', string>> {
  const errors: Partial<Record<'name' | 'messagesUrl' | 'kvUrl', string>> = {};
  if (!draft.name.trim()) errors.name = 'A profile needs a name.';
  else if (draft.name.trim().toLowerCase() === 'local')
    errors.name = '"Local" is the built-in profile; pick another name.';
  const checkUrl = (value: string) => {
    if (!value.trim()) return undefined;
    try {
      const url = new URL(value.trim());
      return url.protocol === 'http:' || url.protocol === 'https:'
        ? undefined
        : 'Use an http:// or https:// URL.';
    } catch {
      return 'Not a valid URL (e.g. https://example.upstash.io).';
    }
  };
  const messagesError = draft.region === 'custom' ? checkUrl(draft.customMessagesUrl) : undefined;
  if (messagesError) errors.messagesUrl = messagesError;
  const kvError = checkUrl(draft.kvUrl);
  if (kvError) errors.kvUrl = kvError;
  return errors;
}

export function isDirty(draft: ProfileDraft, original: ProfileDraft): boolean {
  const settingsChanged =
    JSON.stringify(settingsFromDraft(draft)) !== JSON.stringify(settingsFromDraft(original));
  return settingsChanged || Object.keys(secretChangesFromDraft(draft)).length > 0;
}
