// The charts: what they compute (stacking, tooltip rows, the summary, theme colours), and the component
// drawing through the real uPlot on a canvas that only records (jsdom has no canvas and no matchMedia).
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Chart } from './Chart';
import {
  chartSummary,
  formatClock,
  resolveColor,
  stackForDrawing,
  timeRange,
  timeTicks,
  tooltipRows,
  type ChartSeries,
} from './chart-model';

const SERIES: ChartSeries[] = [
  { label: 'Waiting', color: '--warning' },
  { label: 'Delivered', color: '--success', kind: 'bars' },
];
const DATA = [
  [100, 110, 120],
  [5, 3, 0],
  [1, 4, 2],
];

describe('chart model', () => {
  it('labels time ticks in 24-hour time, with the date under the first tick of each day', () => {
    const at = (text: string) => new Date(text).getTime() / 1000;
    const splits = [at('2026-11-27T23:58:00'), at('2026-11-27T23:59:00'), at('2026-11-28T00:00:00')];
    expect(timeTicks(null, splits, 0, 50, 60)).toEqual(['23:58\n2026-11-27', '23:59', '00:00\n2026-11-28']);
    expect(timeTicks(null, [at('2026-11-27T19:31:05')], 0, 50, 15)).toEqual(['19:31:05\n2026-11-27']);
    // And the tooltip's time, whatever hour cycle the locale prefers.
    expect(formatClock(at('2026-11-27T19:31:05'))).toMatch(/^19.31.05$/);
  });

  it('stacks bar series as running totals, drawn tallest first', () => {
    const { data, order } = stackForDrawing([
      [1, 2],
      [1, 2],
      [3, 0],
      [0, 5],
    ]);
    expect(order).toEqual([2, 1, 0]);
    expect(data).toEqual([
      [1, 2],
      [4, 7],
      [4, 2],
      [1, 2],
    ]);
  });

  it('names each series’ own value at a point, and sums the chart up for screen readers', () => {
    const { time, rows } = tooltipRows(SERIES, DATA, 1);
    expect(time).toMatch(/\d\d.\d\d.\d\d/);
    expect(rows).toEqual([
      { label: 'Waiting', color: '--warning', value: '3' },
      { label: 'Delivered', color: '--success', value: '4' },
    ]);
    expect(chartSummary('Key k', SERIES, DATA)).toBe('Key k: Waiting 0 now, peak 5; Delivered 2 now, peak 4');
  });

  it('keeps a time axis over one point to a minute either side, and other data to its own range', () => {
    // uPlot's own range for one point runs 86,400,000 s past it.
    expect(timeRange([1_000], 1_000, 86_401_000)).toEqual([940, 1_060]);
    expect(timeRange([1_000, 1_300, 1_600], 1_000, 1_600)).toEqual([1_000, 1_600]);
  });

  it('resolves theme tokens, and leaves plain colours alone', () => {
    const style = { getPropertyValue: (name: string) => (name === '--success' ? ' #15803d ' : '') };
    expect(resolveColor('--success', style)).toBe('#15803d');
    expect(resolveColor('--missing', style)).toBe('currentColor');
    expect(resolveColor('red', style)).toBe('red');
  });
});

describe('Chart', () => {
  const drawn: string[] = [];
  beforeAll(() => {
    // A canvas that records what is drawn, and the media queries uPlot asks for its pixel ratio.
    window.matchMedia = vi.fn(() => ({
      matches: false,
      addEventListener() {},
      removeEventListener() {},
    })) as never;
    HTMLCanvasElement.prototype.getContext = function getContext() {
      return new Proxy(
        {},
        {
          get: (_target, name) =>
            name === 'measureText'
              ? () => ({ width: 10 })
              : (...args: unknown[]) => drawn.push(`${String(name)}:${args.length}`),
          set: (_target, name, value) => (drawn.push(`${String(name)}=${String(value)}`), true),
        },
      );
    } as never;
    // Paths are built and handed to the context: nothing to record on them.
    globalThis.Path2D = function Path2D() {
      return new Proxy({}, { get: () => () => undefined });
    } as never;
    document.documentElement.style.setProperty('--warning', '#b45309');
    document.documentElement.style.setProperty('--success', '#15803d');
  });
  afterAll(() => {
    document.documentElement.removeAttribute('data-theme');
  });

  it('draws with the theme’s colours on a canvas, updates its data in place, and redraws on a theme change', async () => {
    const { rerender, container } = render(
      <Chart label="Key k" series={SERIES} data={DATA} width={300} height={120} />,
    );
    expect(screen.getByRole('img', { name: /Key k: Waiting 0 now, peak 5/ })).toBeInTheDocument();
    await vi.waitFor(() => expect(container.querySelector('canvas')).not.toBeNull());
    const canvas = container.querySelector('canvas');
    expect(drawn).toContain('strokeStyle=#b45309');
    expect(drawn).toContain('fillStyle=#15803d');

    rerender(
      <Chart
        label="Key k"
        series={SERIES}
        data={[
          [100, 110],
          [9, 9],
          [1, 1],
        ]}
        width={300}
        height={120}
      />,
    );
    expect(screen.getByRole('img', { name: /Waiting 9 now, peak 9/ })).toBeInTheDocument();
    expect(container.querySelector('canvas')).toBe(canvas);

    drawn.length = 0;
    document.documentElement.style.setProperty('--warning', '#fbbf24');
    await act(async () => {
      document.documentElement.dataset.theme = 'dark';
      await Promise.resolve();
    });
    await vi.waitFor(() => expect(drawn).toContain('strokeStyle=#fbbf24'));
    expect(container.querySelectorAll('.uplot')).toHaveLength(1);
  });

  it('shows each series’ value under the pointer in its tooltip', async () => {
    const { container } = render(
      <Chart label="Key k" series={SERIES} data={DATA} width={300} height={120} />,
    );
    await vi.waitFor(() => expect(container.querySelector('.u-over')).not.toBeNull());
    const over = container.querySelector('.u-over') as HTMLElement;
    fireEvent.mouseEnter(over);
    fireEvent.mouseMove(over, { clientX: 150, clientY: 20 });
    const tooltip = await vi.waitFor(() => {
      const box = container.querySelector('.chart-tooltip') as HTMLElement;
      expect(box.hidden).toBe(false);
      return box;
    });
    expect(tooltip.textContent).toMatch(/Waiting \d/);
    expect(tooltip.textContent).toMatch(/Delivered \d/);
  });
});
