// A tiny SVG line chart (lines/s over the last minute): one polyline, no chart library needed for it.
import { ChartFrame } from '../../../ui/ChartFrame';

export function Sparkline({
  values,
  label,
  width = 120,
  height = 24,
}: {
  values: readonly number[];
  label: string;
  width?: number;
  height?: number;
}) {
  const max = Math.max(1, ...values);
  const step = values.length > 1 ? width / (values.length - 1) : width;
  const points = values
    .map((value, i) => `${(i * step).toFixed(1)},${(height - 1 - (value / max) * (height - 2)).toFixed(1)}`)
    .join(' ');
  return (
    <ChartFrame className="sparkline" width={width} height={height} label={label}>
      <title>{`${label}: peak ${max.toLocaleString()}`}</title>
      <polyline points={points} fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinejoin="round" />
    </ChartFrame>
  );
}
