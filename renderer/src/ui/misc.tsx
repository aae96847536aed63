import type { ReactNode } from 'react';
import type { EnvironmentTag } from '../../../shared/profiles';
import { AlertIcon, CheckIcon, InfoIcon } from './icons';

export const ENV_LABEL: Record<EnvironmentTag, string> = { local: 'Local', dev: 'Dev', prod: 'Prod' };

export function EnvBadge({ env }: { env: EnvironmentTag }) {
  return (
    <span className={`badge badge-${env}`} title={`Environment: ${ENV_LABEL[env]}`}>
      {ENV_LABEL[env]}
    </span>
  );
}

export function Badge({
  tone,
  children,
}: {
  tone?: 'success' | 'warning' | 'danger' | 'info';
  children: ReactNode;
}) {
  return <span className={tone ? `badge tone-${tone}` : 'badge'}>{children}</span>;
}

export function Callout({
  tone = 'info',
  title,
  children,
}: {
  tone?: 'info' | 'warning' | 'danger' | 'success';
  title?: ReactNode;
  children?: ReactNode;
}) {
  const Icon = tone === 'success' ? CheckIcon : tone === 'info' ? InfoIcon : AlertIcon;
  return (
    <div className={`callout tone-${tone}`} role={tone === 'danger' ? 'alert' : undefined}>
      <Icon />
      <div className="callout-text">
        {title ? <strong>{title}</strong> : null}
        {title && children ? ' ' : null}
        {children}
      </div>
    </div>
  );
}

export function EmptyState({
  icon,
  title,
  children,
  actions,
}: {
  icon: ReactNode;
  title: string;
  children: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="empty">
      <div className="empty-icon">{icon}</div>
      <h2>{title}</h2>
      <div className="muted stack">{children}</div>
      {actions ? <div className="row">{actions}</div> : null}
    </div>
  );
}

export function Kbd({ children }: { children: ReactNode }) {
  return <kbd className="kbd">{children}</kbd>;
}

export function Spinner({ label = 'Loading' }: { label?: string }) {
  return <span className="spinner" role="status" aria-label={label} />;
}
