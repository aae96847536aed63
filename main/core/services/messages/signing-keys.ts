// Signing keys of the message service. The keys are secrets: they stay in main, the renderer gets masked hints
// and whether the profile's stored keys (used to verify signatures) still match the service's.
import type {
  signingKeyProcedures,
  SigningKeysView,
} from '../../../../shared/bridge/procedures/messages/signing-keys';
import type { SigningKeys } from '../../../../shared/messages/types';
import { LOCAL_PROFILE_ID } from '../../../../shared/profiles';
import type { Handlers } from '../../bridge/router';
import type { ProfilesService, ResolvedProfile } from '../../profiles/profiles-service';
import { maskSecret } from '../../secrets/secret-store';
import { MessageClient } from './client';

type Names = keyof typeof signingKeyProcedures;

function view(profile: ResolvedProfile, keys: SigningKeys): SigningKeysView {
  let profileKeys: SigningKeysView['profileKeys'];
  if (profile.id === LOCAL_PROFILE_ID) profileKeys = 'builtIn';
  else {
    const current = profile.secret('currentSigningKey');
    const next = profile.secret('nextSigningKey');
    if (!current && !next) profileKeys = 'none';
    else profileKeys = current === keys.current && next === keys.next ? 'match' : 'differ';
  }
  return { current: maskSecret(keys.current ?? ''), next: maskSecret(keys.next ?? ''), profileKeys };
}

export function signingKeyHandlers({
  profiles,
}: {
  profiles: Pick<ProfilesService, 'resolve' | 'update'>;
}): Pick<Handlers, Names> {
  return {
    'messages.signingKeys.get': async ({ profileId }) => {
      const profile = profiles.resolve(profileId);
      return view(profile, await MessageClient.forProfile(profile).signingKeys());
    },
    'messages.signingKeys.rotate': async ({ profileId }) => {
      const profile = profiles.resolve(profileId);
      const body = await MessageClient.forProfile(profile).rotateSigningKeys();
      // A profile that stores signing keys keeps verifying signatures only with the new pair.
      const stored = profile.id !== LOCAL_PROFILE_ID && view(profile, body).profileKeys === 'differ';
      if (stored) {
        profiles.update(profileId, {}, { currentSigningKey: body.current, nextSigningKey: body.next });
      }
      return { ...view(profiles.resolve(profileId), body), profileUpdated: stored };
    },
  };
}
