// Every chart of the console, over uPlot: time on x, counts on y, lines or (stacked) bars, a tooltip with
// each series' value under the pointer, and colours from the theme's tokens (redrawn when the theme
// changes). `compact` is a sparkline: no axes, the tooltip only. uPlot loads with the first chart shown,
// so screens without charts never pay for it; where it cannot draw (no canvas), the chart is its summary.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import {
  type ChartData,
  type ChartSeries,
  chartSummary,
  formatCount,
  resolveColor,
  stackForDrawing,
  timeRange,
  timeTicks,
  tooltipRows,
} from './chart-model';
import './chart.css';

export type { ChartData, ChartSeries } from './chart-model';

let loading: Promise<typeof uPlot> | undefined;
function loadUplot(): Promise<typeof uPlot> {
  loading ??= import('uplot').then((module) => module.default);
  return loading;
}

/** The theme the page shows now (`data-theme` on the root element), followed as it changes. */
function useThemeName(): string {
  const root = document.documentElement;
  const [theme, setTheme] = useState(() => root.dataset.theme ?? '');
  useEffect(() => {
    const observer = new MutationObserver(() => setTheme(root.dataset.theme ?? ''));
    observer.observe(root, { attributes: true, attributeFilter: ['data-theme'] });
    return () => observer.disconnect();
  }, [root]);
  return theme;
}

/** `#rrggbb` with an alpha, for the area under a line; other colour forms are used as they are. */
function translucent(color: string, alpha: number): string {
  const hex = /^#([0-9a-f]{6})$/i.exec(color);
  if (!hex) return color;
  const n = Number.parseInt(hex[1] as string, 16);
  return `rgba(${n >> 16}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}

export interface ChartProps {
  /** What the chart shows; read to screen readers with each series' latest and highest value. */
  label: string;
  series: readonly ChartSeries[];
  data: ChartData;
  /** Pixels, or `fill` for the width of the surrounding box. */
  width: number | 'fill';
  height: number;
  /** A sparkline: no axes and no padding, the tooltip only. */
  compact?: boolean;
  /** Bar series are stacked (the tooltip still shows each one's own value). */
  stacked?: boolean;
  /**
   * How the tooltip names an x value when x is not a time (e.g. `-12` → "12 s ago"); without it x is unix
   * seconds, on a time axis.
   */
  xLabel?: (x: number) => string;
  className?: string;
}

export function Chart({
  label,
  series,
  data,
  width,
  height,
  compact = false,
  stacked = false,
  xLabel,
  className,
}: ChartProps) {
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const theme = useThemeName();
  const [measured, setMeasured] = useState(typeof width === 'number' ? width : 0);
  const shownWidth = typeof width === 'number' ? width : measured;
  const drawn = useMemo(() => (stacked ? stackForDrawing(data) : undefined), [data, stacked]);
  // The latest data, for the chart being created and for the tooltip, without re-creating the chart.
  const latest = useRef({ data, drawn, xLabel });
  useLayoutEffect(() => {
    latest.current = { data, drawn, xLabel };
  });
  const seriesKey = series.map((item) => `${item.label}|${item.color}|${item.kind ?? 'line'}`).join(',');

  useEffect(() => {
    if (typeof width === 'number' || !host.current) return;
    const element = host.current;
    const observer = new ResizeObserver(() => setMeasured(Math.floor(element.clientWidth)));
    observer.observe(element);
    setMeasured(Math.floor(element.clientWidth));
    return () => observer.disconnect();
  }, [width]);

  useEffect(() => {
    const element = host.current;
    if (!element || shownWidth <= 0) return;
    let cancelled = false;
    let instance: uPlot | undefined;
    loadUplot()
      .then((UPlot) => {
        if (cancelled) return;
        const options = chartOptions(UPlot, {
          series,
          compact,
          stacked,
          width: shownWidth,
          height,
          time: !latest.current.xLabel,
          latest: () => latest.current,
        });
        const initial = latest.current.drawn?.data ?? latest.current.data;
        instance = new UPlot(options, initial as uPlot.AlignedData, element);
        plot.current = instance;
      })
      .catch(() => {
        // No canvas here (a test's DOM): the chart stays its summary.
      });
    return () => {
      cancelled = true;
      instance?.destroy();
      plot.current = null;
    };
    // Re-created when what it draws or how changes; new data alone goes through setData below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [seriesKey, theme, compact, stacked, height, shownWidth > 0]);

  useEffect(() => {
    plot.current?.setData((drawn?.data ?? data) as uPlot.AlignedData);
  }, [data, drawn]);

  useEffect(() => {
    if (shownWidth > 0) plot.current?.setSize({ width: shownWidth, height });
  }, [shownWidth, height]);

  return (
    <div
      ref={host}
      className={['chart', compact ? 'chart-compact' : '', className ?? ''].filter(Boolean).join(' ')}
      style={{ width: typeof width === 'number' ? width : '100%', height }}
      role="img"
      aria-label={chartSummary(label, series, data)}
    />
  );
}

function chartOptions(
  UPlot: typeof uPlot,
  {
    series,
    compact,
    stacked,
    width,
    height,
    time,
    latest,
  }: {
    series: readonly ChartSeries[];
    compact: boolean;
    stacked: boolean;
    width: number;
    height: number;
    time: boolean;
    latest: () => { data: ChartData; xLabel?: (x: number) => string };
  },
): uPlot.Options {
  const style = getComputedStyle(document.documentElement);
  const color = (token: string) => resolveColor(token, style);
  const muted = color('--text-muted');
  const grid = color('--border');
  const font = `11px ${style.getPropertyValue('--font-sans').trim() || 'sans-serif'}`;
  const order = stacked ? stackForDrawing([[], ...series.map(() => [])]).order : series.map((_, i) => i);
  const bars = UPlot.paths.bars?.({ size: [0.8, 24], gap: 1 });
  const axis = (values?: uPlot.Axis['values']): uPlot.Axis => ({
    show: !compact,
    stroke: muted,
    font,
    grid: { stroke: grid, width: 1 },
    ticks: { stroke: grid, width: 1, size: 4 },
    ...(values ? { values } : {}),
  });
  return {
    width,
    height,
    // Room either side for the date line under the first and last time ticks, centred on the plot edges.
    padding: compact ? [2, 0, 2, 0] : [8, 24, 0, 16],
    legend: { show: false },
    cursor: { points: { size: 6 }, y: false, drag: { x: false, y: false } },
    scales: {
      x: time ? { time, range: (u, min, max) => timeRange(u.data[0] ?? [], min, max) } : { time },
      // Counts: from 0, and never a flat line at the top when everything is 0.
      y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
    },
    axes: [
      axis(time ? timeTicks : undefined),
      {
        ...axis((_u, splits) => splits.map((value) => (Number.isInteger(value) ? formatCount(value) : ''))),
        size: 44,
      },
    ],
    series: [
      {},
      ...order.map((index): uPlot.Series => {
        const item = series[index] as ChartSeries;
        const stroke = color(item.color);
        const isBars = item.kind === 'bars';
        return {
          label: item.label,
          stroke,
          width: isBars ? 0 : 1.5,
          fill: isBars ? stroke : translucent(stroke, 0.12),
          paths: isBars ? bars : undefined,
          points: { show: false },
        };
      }),
    ],
    plugins: [tooltipPlugin(series, latest)],
  };
}

/** A small box over the chart naming the time and each series' value at the pointer (built as text nodes). */
function tooltipPlugin(
  series: readonly ChartSeries[],
  latest: () => { data: ChartData; xLabel?: (x: number) => string },
): uPlot.Plugin {
  const box = document.createElement('div');
  box.className = 'chart-tooltip';
  box.hidden = true;
  const style = getComputedStyle(document.documentElement);
  return {
    hooks: {
      init: (plot) => void plot.over.appendChild(box),
      setCursor: (plot) => {
        const index = plot.cursor.idx;
        const left = plot.cursor.left ?? -1;
        if (index === null || index === undefined || left < 0) {
          box.hidden = true;
          return;
        }
        const { data, xLabel } = latest();
        const { time, rows } = tooltipRows(series, data, index, xLabel);
        box.replaceChildren();
        const head = document.createElement('div');
        head.className = 'chart-tooltip-time';
        head.textContent = time;
        box.appendChild(head);
        for (const row of rows) {
          const line = document.createElement('div');
          const dot = document.createElement('span');
          dot.className = 'chart-tooltip-dot';
          dot.style.background = resolveColor(row.color, style);
          line.append(dot, `${row.label} `);
          const value = document.createElement('strong');
          value.textContent = row.value;
          line.appendChild(value);
          box.appendChild(line);
        }
        box.hidden = false;
        // Beside the pointer, flipped to its left in the right half so it stays inside the chart.
        const flip = left > plot.over.clientWidth / 2;
        box.style.left = flip ? '' : `${left + 10}px`;
        box.style.right = flip ? `${plot.over.clientWidth - left + 10}px` : '';
      },
    },
  };
}
