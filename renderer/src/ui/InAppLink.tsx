// A link to another screen of the console. The href is the screen's hash route (hover, copy link and
// middle-click see a real address); a plain click is handled in the page by onOpen, which may carry
// more than the route can (a run's createdAt, a selection to restore).
import type { AnchorHTMLAttributes } from 'react';

export function InAppLink({
  onOpen,
  ...rest
}: Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'onClick'> & { href: string; onOpen: () => void }) {
  return (
    <a
      {...rest}
      onClick={(event) => {
        event.preventDefault();
        onOpen();
      }}
    />
  );
}
