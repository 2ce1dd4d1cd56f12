import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { type CategorySeries, compactNumber } from './shape';

interface ChartProps {
  /** The figure's accessible name and caption. */
  title: string;
  data: CategorySeries;
  kind: 'line' | 'bars';
  /** The axes' titles: what a category is ("Day") and what is measured ("Revenue, USD"). */
  categoryLabel: string;
  valueLabel: string;
  /** The value under the cursor, in the legend (money in the currency's decimals). */
  formatValue: (value: number) => string;
  height?: number;
  /** A performance mark set once the chart has first been drawn (the dashboard's timing). */
  drawnMark?: string;
}

/**
 * The one chart of the back office: uPlot (about 50 KB minified, canvas, draws thousands of points in
 * a frame) over categories on the x axis: days, branches, payment methods. The figures it shows are
 * always in a table beside it too; the canvas is a picture for the eye.
 */
export function Chart(props: ChartProps) {
  const { title, data, kind, formatValue, height = 240, drawnMark, categoryLabel, valueLabel } = props;
  const box = useRef<HTMLDivElement>(null);
  const [hovered, setHovered] = useState<{ index: number; left: number; top: number } | null>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    let marked = false;
    const plot = new uPlot(
      chartOptions(
        { data, kind, formatValue, height, width: Math.max(280, el.clientWidth), categoryLabel, valueLabel },
        {
          onDraw: () => {
            if (drawnMark && !marked) {
              marked = true;
              performance.mark(drawnMark);
            }
          },
          onHover: setHovered,
        },
      ),
      [data.values.map((_, i) => i), data.values],
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(280, el.clientWidth), height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [data, kind, formatValue, height, drawnMark, categoryLabel, valueLabel]);
  const point = hovered && data.values[hovered.index] !== undefined ? hovered : null;
  return (
    <figure className="chart" aria-label={title}>
      <figcaption>{title}</figcaption>
      <div className="chart-box">
        <div ref={box} className="chart-canvas" role="img" aria-label={`${title} (chart)`} />
        {point && (
          <output
            className="chart-tip"
            style={{ left: point.left, top: point.top }}
            aria-label={`${title}: value`}
          >
            <span>{data.labels[point.index]}</span> <strong>{formatValue(data.values[point.index]!)}</strong>
          </output>
        )}
      </div>
    </figure>
  );
}

const ACCENT = '#0b6e4f';

function chartOptions(
  o: {
    data: CategorySeries;
    kind: 'line' | 'bars';
    formatValue: (v: number) => string;
    height: number;
    width: number;
    categoryLabel: string;
    valueLabel: string;
  },
  on: {
    onDraw: () => void;
    /** The category under the cursor and where its point is drawn (CSS pixels inside the chart), or none. */
    onHover: (at: { index: number; left: number; top: number } | null) => void;
  },
): uPlot.Options {
  const { labels } = o.data;
  const n = labels.length;
  const bars = o.kind === 'bars';
  const labelSpace = Math.max(60, Math.max(0, ...labels.map((l) => l.length)) * 9 + 24);
  return {
    width: o.width,
    height: o.height,
    scales: {
      x: { time: false, range: () => [-0.5, Math.max(0.5, n - 0.5)] },
      y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
    },
    // One series: its name is the value axis's title, and the hovered value shows beside the cursor.
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
    axes: [
      {
        // As many labels as fit side by side (about 9 px a character and a gap), so they never overlap.
        splits: (u) => tickIndexes(n, Math.max(2, Math.floor(u.width / labelSpace))),
        values: (_u, splits) => splits.map((i) => labels[i] ?? ''),
        gap: 4,
        label: o.categoryLabel,
        labelSize: 24,
      },
      { values: (_u, splits) => splits.map(compactNumber), size: 60, label: o.valueLabel, labelSize: 24 },
    ],
    series: [
      { label: o.categoryLabel, value: (_u, i) => (i == null ? '' : (labels[i] ?? '')) },
      {
        label: o.valueLabel,
        stroke: ACCENT,
        width: bars ? 0 : 2,
        fill: bars ? `${ACCENT}cc` : `${ACCENT}22`,
        value: (_u, v) => (v == null ? '' : o.formatValue(v)),
        ...(bars
          ? { paths: uPlot.paths.bars?.({ size: [0.7, 80], align: 0 }), points: { show: false } }
          : { points: { show: n <= 40, size: 5 } }),
      },
    ],
    hooks: {
      draw: [on.onDraw],
      setCursor: [
        (u) => {
          const index = u.cursor.idx;
          const value = index == null ? undefined : u.data[1]?.[index];
          if (index == null || value == null) return on.onHover(null);
          on.onHover({
            index,
            left: u.over.offsetLeft + u.valToPos(index, 'x'),
            top: u.over.offsetTop + u.valToPos(value, 'y'),
          });
        },
      ],
    },
  };
}

/** At most `max` evenly spaced category indexes, so labels never overlap. */
function tickIndexes(n: number, max: number): number[] {
  const step = Math.max(1, Math.ceil(n / max));
  const out: number[] = [];
  for (let i = 0; i < n; i += step) out.push(i);
  return out;
}
