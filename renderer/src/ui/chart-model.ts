// What the console's charts (Chart.tsx, over uPlot) compute without a canvas: stacking, the tooltip's rows,
// the summary read to screen readers, time labels, and theme colours resolved from the CSS tokens.

export interface ChartSeries {
  label: string;
  /** A colour token of the theme, e.g. `--accent`: resolved for the canvas, and again when the theme changes. */
  color: string;
  /** `line` (the default) or `bars`. */
  kind?: 'line' | 'bars';
}

/** x values (unix seconds, or what `xLabel` names) first, then one array per series, all the same length. */
export type ChartData = readonly (readonly number[])[];

/**
 * Stacked bars drawn as uPlot bars: each series becomes the running total up to it, and the series are
 * drawn tallest first so that each shorter total paints over the lower part of the one before it. Answers
 * the data in drawing order and the index of each drawn series in `series`.
 */
export function stackForDrawing(data: ChartData): { data: number[][]; order: number[] } {
  const [xs = [], ...ys] = data;
  const totals: number[][] = [];
  ys.forEach((values, index) => {
    const below = totals[index - 1];
    totals.push(values.map((value, i) => value + (below ? (below[i] as number) : 0)));
  });
  const order = ys.map((_, index) => ys.length - 1 - index);
  return { data: [[...xs], ...order.map((index) => totals[index] as number[])], order };
}

export interface TooltipRow {
  label: string;
  color: string;
  value: string;
}

/** The tooltip at point `index`: its time and each series' own value (not a stacked total). */
export function tooltipRows(
  series: readonly ChartSeries[],
  data: ChartData,
  index: number,
  xLabel: (x: number) => string = formatClock,
): { time: string; rows: TooltipRow[] } {
  const x = data[0]?.[index];
  return {
    time: x === undefined ? '' : xLabel(x),
    rows: series.map((item, i) => ({
      label: item.label,
      color: item.color,
      value: formatCount(data[i + 1]?.[index] ?? 0),
    })),
  };
}

/** One sentence for screen readers: what the chart shows and each series' latest and highest value. */
export function chartSummary(label: string, series: readonly ChartSeries[], data: ChartData): string {
  const parts = series.map((item, i) => {
    const values = data[i + 1] ?? [];
    const latest = values.length > 0 ? (values[values.length - 1] as number) : 0;
    const peak = values.reduce((max, value) => Math.max(max, value), 0);
    return `${item.label} ${formatCount(latest)} now, peak ${formatCount(peak)}`;
  });
  return parts.length > 0 ? `${label}: ${parts.join('; ')}` : label;
}

export function formatCount(value: number): string {
  return Math.round(value).toLocaleString();
}

/** A time on the x axis (unix seconds) as the clock shows it: 14:05:30. */
export function formatClock(seconds: number): string {
  // hourCycle: the console's times are 24-hour everywhere; the locale's default may be 12-hour (7:31:00 PM).
  return new Date(seconds * 1000).toLocaleTimeString([], {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
}

/** A colour token (`--accent`) as the current theme defines it; the token itself if it is not a variable. */
export function resolveColor(token: string, style: Pick<CSSStyleDeclaration, 'getPropertyValue'>): string {
  if (!token.startsWith('--')) return token;
  return style.getPropertyValue(token).trim() || 'currentColor';
}

/**
 * The x range of a time axis: the data's own, except when every x is the same point, where uPlot stretches
 * the axis over 1,000 days (its one-day fallback counted in milliseconds on a seconds axis): a minute either side.
 */
export function timeRange(
  xs: ArrayLike<number | null | undefined>,
  min: number,
  max: number,
): [number, number] {
  const first = xs[0];
  if (typeof first === 'number' && first === xs[xs.length - 1]) return [first - 60, first + 60];
  return [min, max];
}

/**
 * Time ticks in the console's 24-hour style (uPlot's own are US 12-hour, `7:31pm`, `11/27/26`): `HH:mm`, with
 * seconds when ticks are less than a minute apart, and the date (`YYYY-MM-DD`) under the first tick of each day.
 * `splits` and `increment` are in seconds.
 */
export function timeTicks(
  _u: unknown,
  splits: number[],
  _axis: number,
  _space: number,
  increment: number,
): string[] {
  const pad = (n: number) => String(n).padStart(2, '0');
  let shownDay = '';
  return splits.map((seconds) => {
    const at = new Date(seconds * 1000);
    const clock = `${pad(at.getHours())}:${pad(at.getMinutes())}${increment < 60 ? `:${pad(at.getSeconds())}` : ''}`;
    const day = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
    const text = day === shownDay ? clock : `${clock}\n${day}`;
    shownDay = day;
    return text;
  });
}
