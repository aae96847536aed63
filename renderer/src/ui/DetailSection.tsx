// A titled section of a detail panel's body (the request, the response, the trail).
import type { ReactNode } from 'react';
import './detail-panel.css';

export function DetailSection({
  title,
  label,
  children,
}: {
  title: ReactNode;
  /** The section's accessible name where the title is not it. */
  label?: string;
  children: ReactNode;
}) {
  return (
    <section className="detail-section" aria-label={label}>
      <h3 className="section-title">{title}</h3>
      {children}
    </section>
  );
}
