// A determinate progress bar (or an indeterminate one while `value` is undefined), with its label for
// screen readers and a text line beside it.
import type { ReactNode } from 'react';
import './progress.css';

export function ProgressBar({
  value,
  max,
  label,
  tone = 'accent',
  children,
}: {
  /** Done so far; undefined shows a moving bar (the total is not known yet). */
  value?: number;
  max: number;
  label: string;
  tone?: 'accent' | 'danger' | 'success';
  /** A line under the bar, e.g. "120 of 230". */
  children?: ReactNode;
}) {
  const percent = value === undefined || max <= 0 ? undefined : Math.min(100, (value / max) * 100);
  return (
    <div className="progress">
      <div
        className={`progress-track progress-${tone}`}
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={max}
        aria-valuenow={value}
      >
        <div
          className={percent === undefined ? 'progress-fill progress-indeterminate' : 'progress-fill'}
          style={percent === undefined ? undefined : { width: `${percent}%` }}
        />
      </div>
      {children ? <div className="progress-text">{children}</div> : null}
    </div>
  );
}
