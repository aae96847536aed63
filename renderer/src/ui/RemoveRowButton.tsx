// The trash-can button at the end of a row — a queue, an endpoint, a line of a form — that removes that one
// row. It has no text, so `label` names what it removes for screen readers. With a profile it is a write
// action: off on a read-only profile (see WriteButton).
import type { ProfileView } from '../../../shared/profiles';
import { Button, type ButtonProps } from './Button';
import { TrashIcon } from './icons';
import { WriteButton } from './WriteButton';

export interface RemoveRowButtonProps extends Omit<ButtonProps, 'children' | 'icon' | 'size' | 'variant'> {
  label: string;
  profile?: Pick<ProfileView, 'readOnly'>;
}

export function RemoveRowButton({ label, profile, ...rest }: RemoveRowButtonProps) {
  const props = { size: 'sm', variant: 'ghost', icon: <TrashIcon />, 'aria-label': label, ...rest } as const;
  return profile ? <WriteButton profile={profile} {...props} /> : <Button {...props} />;
}
