// The monitor's lines per second over the last minute: a compact chart (ui/Chart), one point per second,
// x counted in seconds before now.
import { useMemo } from 'react';
import { Chart, type ChartSeries } from '../../../ui/Chart';

const SERIES: readonly ChartSeries[] = [{ label: 'Lines/s', color: '--accent' }];
const secondsAgo = (x: number) => (x === 0 ? 'last second' : `${-x} s before`);

export function Sparkline({
  values,
  label,
  width = 120,
  height = 24,
}: {
  /** Per second, oldest first, the last one the latest whole second. */
  values: readonly number[];
  label: string;
  width?: number;
  height?: number;
}) {
  const data = useMemo(() => [values.map((_, i) => i - (values.length - 1)), values], [values]);
  return (
    <Chart
      compact
      className="sparkline"
      label={label}
      series={SERIES}
      data={data}
      xLabel={secondsAgo}
      width={width}
      height={height}
    />
  );
}
