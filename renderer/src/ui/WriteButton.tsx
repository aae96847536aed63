// A button for a write action. On a read-only profile it is disabled and its title says why, the same way
// on every screen; otherwise it is a plain Button with the caller's own `disabled` and `title`.
import type { ProfileView } from '../../../shared/profiles';
import { Button, type ButtonProps } from './Button';

export const READ_ONLY_TITLE = 'Read-only profile';

export interface WriteButtonProps extends ButtonProps {
  profile: Pick<ProfileView, 'readOnly'>;
}

export function WriteButton({ profile, disabled, title, ...rest }: WriteButtonProps) {
  return (
    <Button
      {...rest}
      disabled={profile.readOnly || disabled}
      title={profile.readOnly ? READ_ONLY_TITLE : title}
    />
  );
}
