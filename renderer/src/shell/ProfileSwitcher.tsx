import { useEffect, useRef, useState } from 'react';
import { errorMessage } from '../bridge/client';
import { useBridgeMutation } from '../bridge/react';
import { ChevronDownIcon, PlusIcon, UserIcon } from '../ui/icons';
import { ENV_LABEL, EnvBadge } from '../ui/misc';
import { toast } from '../ui/toast';
import { useActiveProfile, useProfiles } from './data';
import { useNav } from './nav';

export function ProfileSwitcher() {
  const { data } = useProfiles();
  const active = useActiveProfile();
  const navigate = useNav((state) => state.navigate);
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const activate = useBridgeMutation('profiles.activate', {
    onError: (error) => toast.error('Could not switch profile', errorMessage(error)),
  });

  useEffect(() => {
    if (!open) return;
    const onDown = (event: MouseEvent) => {
      if (!ref.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setOpen(false);
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  return (
    <div className="profile-switcher" ref={ref}>
      <button
        type="button"
        className={`profile-button${active?.env === 'prod' ? ' is-prod' : ''}`}
        aria-haspopup="menu"
        aria-expanded={open}
        // Says what the button shows (the name and the environment badge), so a speech command can name it.
        aria-label={
          active
            ? `Active profile: ${active.name}, ${ENV_LABEL[active.env]} environment. Switch profile`
            : 'Active profile: loading. Switch profile'
        }
        onClick={() => setOpen((value) => !value)}
      >
        <UserIcon width={15} height={15} />
        <span className="name">{active?.name ?? '…'}</span> {active ? <EnvBadge env={active.env} /> : null}
        <ChevronDownIcon width={14} height={14} />
      </button>
      {open ? (
        <div className="menu" role="menu">
          {data?.profiles.map((profile) => (
            <button
              key={profile.id}
              type="button"
              role="menuitemradio"
              aria-checked={profile.id === data.activeId}
              className="menu-item"
              data-active={profile.id === data.activeId}
              onClick={() => {
                setOpen(false);
                if (profile.id !== data.activeId) activate.mutate({ id: profile.id });
              }}
            >
              <span className="name">{profile.name}</span>
              <EnvBadge env={profile.env} />
            </button>
          ))}
          <div className="menu-separator" />
          <button
            type="button"
            role="menuitem"
            className="menu-item"
            onClick={() => {
              setOpen(false);
              navigate('profiles', 'new');
            }}
          >
            <PlusIcon width={14} height={14} />
            <span className="name">New profile…</span>
          </button>
        </div>
      ) : null}
    </div>
  );
}
