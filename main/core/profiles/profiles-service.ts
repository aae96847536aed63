// Profiles as the bridge exposes them: CRUD over the settings store and the secret store, the built-in
// Local profile (whose URLs and tokens come from the running local stack), and views that carry only
// `hasValue` and a masked hint for each secret.
import { randomUUID } from 'node:crypto';
import { BridgeError } from '../../../shared/bridge/errors';
import {
  LOCAL_PROFILE_ID,
  type ProfileExport,
  type ProfileSettings,
  type ProfileView,
  profileExportSchema,
  retypeMessage,
  SECRET_NAMES,
  type SecretChanges,
  type SecretName,
  type SecretStatus,
  tokensToRetype,
} from '../../../shared/profiles';
import type { StackStatus } from '../../../shared/stack-status';
import { maskSecret, type SecretStore } from '../secrets/secret-store';
import { localEnvFile } from './local-env';
import type { ProfileStore, StoredProfile } from './profile-store';

/** What the local stack currently offers the Local profile (null while it is not ready). */
export interface LocalStackEndpoints {
  messagesUrl: string;
  kvUrl: string;
  secrets: Partial<Record<SecretName, string>>;
}

/** A profile as main's service clients use it: settings plus access to its secrets. */
export interface ResolvedProfile {
  id: string;
  settings: ProfileSettings;
  secret(name: SecretName): string | undefined;
  /**
   * Why the profile has no services to talk to right now (the Local profile while its stack is not running):
   * a request then fails with this, rather than with "no URL, set one in Profiles", which nobody can do for Local.
   */
  unavailable?: string;
}

/** What a request of the Local profile answers while the local stack has failed (or is down for no known reason). */
export const LOCAL_STACK_DOWN =
  'The local stack is not running right now: start it, or see why it stopped, on the Local stack page. This screen picks up again once it runs.';

/** What the supervisor says of the local stack (main/core/local-stack): its state and its own sentence. */
export type LocalStackState = Pick<StackStatus, 'state' | 'message'>;

/**
 * Why the Local profile cannot reach its services, in the supervisor's terms: while it starts, or restarts by
 * itself after an exit, there is nothing to do but wait; stopped, start it; failed, see why and start it.
 */
export function localStackDown({ state, message }: LocalStackState): string {
  switch (state) {
    case 'starting':
      return `${message} No need to start it: requests go through again once it runs.`;
    case 'stopped':
      return 'The local stack is stopped: start it on the Local stack page. This screen picks up again once it runs.';
    case 'unavailable':
      return message;
    default:
      return LOCAL_STACK_DOWN;
  }
}

export class ProfilesService {
  constructor(
    private readonly store: ProfileStore,
    private readonly secrets: SecretStore,
    private readonly localStack: () => LocalStackEndpoints | null,
    /** The supervisor's state, for what a request of Local answers while its stack is not ready. */
    private readonly localStackState: () => LocalStackState = () => ({ state: 'failed', message: '' }),
    private readonly now: () => number = Date.now,
  ) {}

  get activeId(): string {
    const id = this.store.activeId;
    return id === LOCAL_PROFILE_ID || this.store.get(id) ? id : LOCAL_PROFILE_ID;
  }

  list(): { profiles: ProfileView[]; activeId: string } {
    return {
      profiles: [this.localView(), ...this.store.list().map((profile) => this.view(profile))],
      activeId: this.activeId,
    };
  }

  get(id: string): ProfileView {
    return id === LOCAL_PROFILE_ID ? this.localView() : this.view(this.stored(id));
  }

  resolve(id: string): ResolvedProfile {
    if (id === LOCAL_PROFILE_ID) {
      const local = this.localStack();
      return {
        id,
        settings: this.localSettings(local),
        secret: (name) => local?.secrets[name],
        ...(local ? {} : { unavailable: localStackDown(this.localStackState()) }),
      };
    }
    const profile = this.stored(id);
    return { id, settings: settingsOf(profile), secret: (name) => this.secrets.get(id, name) };
  }

  /** The Local profile as .env text (and masked), for `profiles.copyLocalEnv`. */
  localEnv(): { text: string; masked: string } {
    return localEnvFile(this.localStack(), maskSecret);
  }

  isReadOnly(id: string): boolean {
    if (id === LOCAL_PROFILE_ID) return false;
    const profile = this.store.get(id);
    if (!profile) throw new BridgeError({ code: 'NOT_FOUND', message: `No profile with id ${id}.` });
    return profile.readOnly;
  }

  create(settings: ProfileSettings, secrets: SecretChanges): ProfileView {
    this.assertUniqueName(settings.name);
    const at = this.now();
    const profile: StoredProfile = { ...settings, id: randomUUID(), createdAt: at, updatedAt: at };
    this.store.insert(profile);
    this.applySecrets(profile.id, secrets);
    return this.view(profile);
  }

  update(id: string, changes: Partial<ProfileSettings>, secrets: SecretChanges): ProfileView {
    this.assertEditable(id);
    const current = this.stored(id);
    if (changes.name !== undefined && changes.name !== current.name) this.assertUniqueName(changes.name);
    // The page cannot point a stored token at a host of its choosing (shared/profiles.ts, TOKENS_SENT_TO).
    const retype = tokensToRetype(
      current,
      changes,
      (name) => this.secrets.get(id, name) !== undefined,
      secrets,
    );
    if (retype.length > 0) {
      throw new BridgeError({
        code: 'INVALID_INPUT',
        message: retype.map(retypeMessage).join(' '),
        fields: Object.fromEntries(retype.map((item) => [`settings.${item.url}`, 'moved to another host'])),
      });
    }
    const next: StoredProfile = { ...current, ...changes, updatedAt: this.now() };
    this.store.replace(next);
    this.applySecrets(id, secrets);
    return this.view(next);
  }

  duplicate(id: string): ProfileView {
    const source = this.get(id);
    const copyName = this.freeName(`${source.name} copy`);
    const at = this.now();
    const profile: StoredProfile = {
      ...settingsOf(source),
      // A copy of Local is a normal profile pointing at the same URLs; it becomes editable.
      env: source.env,
      name: copyName,
      id: randomUUID(),
      createdAt: at,
      updatedAt: at,
    };
    this.store.insert(profile);
    if (id === LOCAL_PROFILE_ID) {
      const local = this.localStack();
      for (const name of SECRET_NAMES) {
        const value = local?.secrets[name];
        if (value) this.secrets.set(profile.id, name, value);
      }
    } else {
      this.secrets.copyProfile(id, profile.id);
    }
    return this.view(profile);
  }

  delete(id: string): void {
    this.assertEditable(id);
    this.stored(id);
    this.store.remove(id);
    this.secrets.deleteProfile(id);
  }

  activate(id: string): void {
    if (id !== LOCAL_PROFILE_ID) this.stored(id);
    this.store.setActive(id);
  }

  exportProfiles(ids?: string[]): ProfileExport {
    const chosen = this.store.list().filter((profile) => !ids || ids.includes(profile.id));
    return {
      format: 'switchyard.profiles',
      version: 1,
      exportedAt: new Date(this.now()).toISOString(),
      profiles: chosen.map(settingsOf),
    };
  }

  /** Imports settings only; names that already exist get a suffix rather than overwriting anything. */
  importProfiles(data: unknown): ProfileView[] {
    const parsed = profileExportSchema.safeParse(data);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      throw new BridgeError({
        code: 'INVALID_INPUT',
        message: `Not a Switchyard profiles export: ${first ? `${first.path.join('.') || 'file'}: ${first.message}` : 'unreadable'}.`,
      });
    }
    return parsed.data.profiles.map((settings) =>
      this.create({ ...settings, name: this.freeName(settings.name) }, {}),
    );
  }

  private applySecrets(id: string, changes: SecretChanges): void {
    for (const name of SECRET_NAMES) {
      const value = changes[name];
      if (value !== undefined) this.secrets.set(id, name, value);
    }
  }

  private stored(id: string): StoredProfile {
    const profile = this.store.get(id);
    if (!profile) throw new BridgeError({ code: 'NOT_FOUND', message: `No profile with id ${id}.` });
    return profile;
  }

  private assertEditable(id: string): void {
    if (id === LOCAL_PROFILE_ID) {
      throw new BridgeError({
        code: 'INVALID_INPUT',
        message:
          'The Local profile is built in and always points at the local stack. Duplicate it to make an editable copy.',
      });
    }
  }

  private assertUniqueName(name: string): void {
    const taken =
      name.toLowerCase() === 'local' ||
      this.store.list().some((p) => p.name.toLowerCase() === name.toLowerCase());
    if (taken) {
      throw new BridgeError({
        code: 'INVALID_INPUT',
        message: `A profile named "${name}" already exists.`,
        fields: { 'settings.name': 'already used by another profile' },
      });
    }
  }

  private freeName(base: string): string {
    const taken = new Set(['local', ...this.store.list().map((p) => p.name.toLowerCase())]);
    if (!taken.has(base.toLowerCase())) return base;
    for (let n = 2; ; n += 1) {
      const candidate = `${base} ${n}`;
      if (!taken.has(candidate.toLowerCase())) return candidate;
    }
  }

  private view(profile: StoredProfile): ProfileView {
    const secrets = Object.fromEntries(
      SECRET_NAMES.map((name) => [name, statusOf(this.secrets.get(profile.id, name))]),
    ) as Record<SecretName, SecretStatus>;
    return {
      ...settingsOf(profile),
      id: profile.id,
      builtIn: false,
      secrets,
      createdAt: profile.createdAt,
      updatedAt: profile.updatedAt,
    };
  }

  private localSettings(local: LocalStackEndpoints | null): ProfileSettings {
    return {
      name: 'Local',
      env: 'local',
      messagesUrl: local?.messagesUrl ?? '',
      kvUrl: local?.kvUrl ?? '',
      readOnly: false,
      confirmDangerous: true,
    };
  }

  private localView(): ProfileView {
    const local = this.localStack();
    const secrets = Object.fromEntries(
      SECRET_NAMES.map((name) => [name, statusOf(local?.secrets[name])]),
    ) as Record<SecretName, SecretStatus>;
    return {
      ...this.localSettings(local),
      id: LOCAL_PROFILE_ID,
      builtIn: true,
      secrets,
      createdAt: 0,
      updatedAt: 0,
    };
  }
}

function settingsOf(profile: ProfileSettings): ProfileSettings {
  const { name, env, messagesUrl, kvUrl, readOnly, confirmDangerous } = profile;
  return { name, env, messagesUrl, kvUrl, readOnly, confirmDangerous };
}

function statusOf(value: string | undefined): SecretStatus {
  return value ? { hasValue: true, hint: maskSecret(value) } : { hasValue: false, hint: null };
}
