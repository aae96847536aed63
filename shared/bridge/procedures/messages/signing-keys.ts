// Signing keys of the message service. The keys are secrets: main answers masked hints only.
import { z } from 'zod';
import { call } from '../../define';
import { profileIdSchema as profileId } from '../../profile-id';

export interface SigningKeysView {
  /** Masked hints, e.g. `••••Rj6r`; the keys themselves never leave main. */
  current: string;
  next: string;
  /**
   * How the keys stored in the profile (for verifying signatures) compare with the service's:
   * `match`, `differ`, `none` (the profile stores none) or `builtIn` (Local takes them from the stack).
   */
  profileKeys: 'match' | 'differ' | 'none' | 'builtIn';
}

export const signingKeyProcedures = {
  'messages.signingKeys.get': call<SigningKeysView>()(z.object({ profileId }), 'read'),
  /**
   * Rotates: next becomes current and the service makes a new next. When the profile stores signing
   * keys, main updates them to the new pair (`profileUpdated`).
   */
  'messages.signingKeys.rotate': call<SigningKeysView & { profileUpdated: boolean }>()(
    z.object({ profileId }),
    'write',
    { invalidates: ['messages.signingKeys.get', 'profiles.list'] },
  ),
};
