// A saved cloud profile as the page sees it (secrets only as hints), for renderer tests; each test overrides
// what it is about.
import type { ProfileView } from '../../../shared/profiles';

export const UNSET_SECRET = { hasValue: false, hint: null };
export const HIDDEN_SECRET = { hasValue: true, hint: '••••abcd' };

export function stagingProfile(overrides: Partial<ProfileView> = {}): ProfileView {
  return {
    id: 'p1',
    name: 'Staging',
    env: 'dev',
    messagesUrl: 'https://qstash-us-east-1.upstash.io',
    kvUrl: 'https://kv.example.io',
    readOnly: false,
    confirmDangerous: false,
    builtIn: false,
    createdAt: 1,
    updatedAt: 1,
    secrets: {
      messageToken: HIDDEN_SECRET,
      currentSigningKey: UNSET_SECRET,
      nextSigningKey: UNSET_SECRET,
      kvToken: UNSET_SECRET,
      kvReadOnlyToken: UNSET_SECRET,
    },
    ...overrides,
  };
}
