// The write actions of a list toolbar that act on a set of rows — the selected ones, or every row the
// filter matches: small buttons, off on a read-only profile and while there is nothing to act on.
//
//   <RowActions profile={profile} available={selection.count > 0} actions={[
//     { label: 'Retry selected…', variant: 'primary', onClick: () => ask('retry') }, …]} />
import type { ProfileView } from '../../../shared/profiles';
import type { ButtonProps } from './Button';
import { WriteButton } from './WriteButton';

export interface RowAction {
  label: string;
  variant?: ButtonProps['variant'];
  busy?: boolean;
  onClick: () => void;
}

export function RowActions({
  profile,
  available,
  title,
  actions,
}: {
  profile: Pick<ProfileView, 'readOnly'>;
  /** False while there is nothing to act on: no row selected, no usable filter. */
  available: boolean;
  /** What the buttons act on; on a read-only profile the reason they are off replaces it. */
  title?: string;
  actions: RowAction[];
}) {
  return (
    <>
      {actions.map(({ label, ...action }) => (
        <WriteButton key={label} size="sm" profile={profile} disabled={!available} title={title} {...action}>
          {label}
        </WriteButton>
      ))}
    </>
  );
}
