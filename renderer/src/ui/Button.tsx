import type { ButtonHTMLAttributes, ReactNode } from 'react';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'default' | 'primary' | 'danger' | 'ghost';
  size?: 'md' | 'sm';
  icon?: ReactNode;
  /** Shows a spinner and disables the button. */
  busy?: boolean;
}

export function Button({
  variant = 'default',
  size = 'md',
  icon,
  busy,
  disabled,
  children,
  className,
  ...rest
}: ButtonProps) {
  const classes = [
    'btn',
    variant !== 'default' && `btn-${variant}`,
    size === 'sm' && 'btn-sm',
    !children && 'btn-icon',
    className,
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <button
      type="button"
      className={classes}
      aria-busy={busy || undefined}
      {...rest}
      // After the spread: a busy button is off whatever `disabled` says, so a second click can't send twice.
      disabled={busy || disabled}
    >
      {busy ? <span className="spinner" aria-hidden="true" /> : icon}
      {children}
    </button>
  );
}
