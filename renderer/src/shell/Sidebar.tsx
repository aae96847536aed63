import appIcon from '../../../assets/icon.svg';
import { Kbd } from '../ui/misc';
import { AREAS } from './areas';
import { ClockPill } from './ClockPill';
import { STACK_STATE_LABEL, useStackStatus } from './data';
import { useNav } from './nav';
import { ProfileSwitcher } from './ProfileSwitcher';

const MOD = typeof navigator !== 'undefined' && /Mac/.test(navigator.platform) ? '⌘' : 'Ctrl';

export function Sidebar({ onOpenPalette }: { onOpenPalette: () => void }) {
  const route = useNav((state) => state.route);
  const navigate = useNav((state) => state.navigate);
  const stack = useStackStatus();

  return (
    <aside className="sidebar" aria-label="Sidebar">
      <div className="brand">
        <img className="brand-mark" src={appIcon} alt="" width={26} height={26} />
        Switchyard
      </div>
      <ProfileSwitcher />
      <nav className="nav" aria-label="Areas">
        {(['services', 'console'] as const).map((section) => (
          <div key={section} className="stack" style={{ gap: 1 }}>
            <div className="nav-section">{section === 'services' ? 'Services' : 'Console'}</div>
            {AREAS.filter((area) => area.section === section).map((area) => {
              const Icon = area.icon;
              return (
                <button
                  key={area.id}
                  type="button"
                  className="nav-item"
                  aria-current={route.area === area.id ? 'page' : undefined}
                  onClick={() => navigate(area.id)}
                  title={`${area.label} (Alt+${area.shortcut})`}
                >
                  <Icon />
                  {area.label}
                </button>
              );
            })}
          </div>
        ))}
      </nav>
      <div className="sidebar-footer">
        <button type="button" className="stack-pill" onClick={() => navigate('stack')}>
          <span className={`dot dot-${stack?.state ?? 'stopped'}`} aria-hidden="true" />
          <span>Local stack</span>
          <span className="spacer" />
          <span data-testid="stack-state">{stack ? STACK_STATE_LABEL[stack.state] : '…'}</span>
        </button>
        <ClockPill />
        <button type="button" className="stack-pill" onClick={onOpenPalette}>
          Commands
          <span className="spacer" />
          <Kbd>{MOD}</Kbd>
          <Kbd>K</Kbd>
        </button>
      </div>
    </aside>
  );
}
