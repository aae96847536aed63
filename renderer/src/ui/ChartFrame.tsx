// The frame of a small inline SVG chart (a sparkline, a bar strip): drawn at its own pixel size and named
// for screen readers as one image; what it draws comes as children. Small charts need no chart library.
import type { ReactNode } from 'react';

export function ChartFrame({
  className,
  width,
  height,
  label,
  children,
}: {
  className: string;
  width: number;
  height: number;
  /** What the chart shows, read as the image's name. */
  label: string;
  children: ReactNode;
}) {
  return (
    <svg
      className={className}
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-label={label}
    >
      {children}
    </svg>
  );
}
