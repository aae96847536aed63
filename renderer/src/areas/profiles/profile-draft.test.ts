import { describe, expect, it } from 'vitest';
import {
  draftFromProfile,
  emptyDraft,
  isDirty,
  regionOf,
  secretChangesFromDraft,
  settingsFromDraft,
  validateDraft,
} from './profile-draft';
import { HIDDEN_SECRET, stagingProfile } from '../../test-support/profiles';

const profile = stagingProfile({
  secrets: { ...stagingProfile().secrets, kvToken: HIDDEN_SECRET },
});

describe('profile drafts', () => {
  it('recognises the region presets and treats other URLs as custom', () => {
    expect(regionOf('https://qstash.upstash.io/')).toBe('eu-central-1');
    expect(regionOf('https://qstash-us-east-1.upstash.io')).toBe('us-east-1');
    expect(regionOf('http://127.0.0.1:8080')).toBe('custom');
  });

  it('round-trips a stored profile without changing its settings', () => {
    const draft = draftFromProfile(profile);
    expect(draft.region).toBe('us-east-1');
    const { name, env, messagesUrl, kvUrl, readOnly, confirmDangerous } = profile;
    expect(settingsFromDraft(draft)).toEqual({ name, env, messagesUrl, kvUrl, readOnly, confirmDangerous });
    expect(isDirty(draft, draftFromProfile(profile))).toBe(false);
  });

  it('sends only the secrets the user typed or cleared', () => {
    const draft = draftFromProfile(profile);
    draft.secrets.messageToken = { mode: 'set', value: '  new-token  ' };
    draft.secrets.kvToken = { mode: 'clear' };
    draft.secrets.nextSigningKey = { mode: 'set', value: '   ' };
    expect(secretChangesFromDraft(draft)).toEqual({ messageToken: 'new-token', kvToken: null });
    expect(isDirty(draft, draftFromProfile(profile))).toBe(true);
  });

  it('forces confirmation of dangerous actions for production profiles', () => {
    const draft = { ...emptyDraft(), name: 'Prod', env: 'prod' as const, confirmDangerous: false };
    expect(settingsFromDraft(draft).confirmDangerous).toBe(true);
  });

  it('reports fixable problems per field', () => {
    const draft = {
      ...emptyDraft(),
      name: ' ',
      region: 'custom' as const,
      customMessagesUrl: 'ftp://x',
      kvUrl: 'not a url',
    };
    const errors = validateDraft(draft);
    expect(errors.name).toMatch(/name/);
    expect(errors.messagesUrl).toMatch(/http/);
    expect(errors.kvUrl).toMatch(/valid URL/);
    expect(validateDraft({ ...emptyDraft(), name: 'local' }).name).toMatch(/built-in/);
  });
});
