// How hard to ask before a dangerous action, by profile: production asks you to type a word, a profile
// with "ask before dangerous actions" asks yes/no, a profile without it goes ahead.
import type { ProfileView } from '../../../shared/profiles';
import { confirm, type ConfirmRequest } from './confirm';

export type DangerRequest = Omit<ConfirmRequest, 'typeToConfirm' | 'danger'> & {
  /** What to type on production profiles (default: the profile's name). */
  typeOnProd?: string;
  /**
   * False for an action that writes but destroys nothing (publishing a schedule's message now): asked just
   * as hard, with the normal primary button instead of the red one.
   */
  danger?: boolean;
};

/** Whether a dangerous action needs a question at all for this profile. */
export function needsConfirmation(profile: Pick<ProfileView, 'env' | 'confirmDangerous'>): boolean {
  return profile.env === 'prod' || profile.confirmDangerous;
}

export function confirmDanger(
  profile: Pick<ProfileView, 'env' | 'confirmDangerous' | 'name'>,
  request: DangerRequest,
): Promise<boolean> {
  if (!needsConfirmation(profile)) return Promise.resolve(true);
  const { typeOnProd, danger = true, ...rest } = request;
  return confirm({
    ...rest,
    danger,
    typeToConfirm: profile.env === 'prod' ? (typeOnProd ?? profile.name) : undefined,
  });
}
