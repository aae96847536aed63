// One titled part of the composer form; collapsible ones start open when they hold a value.
import type { ReactNode } from 'react';

export function Section({
  title,
  children,
  collapsible,
  open,
}: {
  title: string;
  children: ReactNode;
  collapsible?: boolean;
  open?: boolean;
}) {
  if (!collapsible) {
    return (
      <section className="composer-section" aria-label={title}>
        <h2 className="section-title">{title}</h2>
        {children}
      </section>
    );
  }
  return (
    <details className="composer-section" open={open} aria-label={title}>
      <summary className="section-title">{title}</summary>
      <div className="composer-section-body">{children}</div>
    </details>
  );
}
