import { scaleBand, scaleLinear } from 'd3-scale';
import { line } from 'd3-shape';
import { useId } from 'react';

/**
 * Charts drawn on the server as SVG (ADR 016): no script, no canvas. Each is an image with an
 * accessible name and a one-sentence summary; the numbers themselves are in the table the screen
 * puts beside it. Everything is painted with `currentColor`, so forced-colors (high contrast) mode
 * repaints it, and the two series differ by shape (bars against a line of dots), never by colour
 * alone.
 */

export interface ComparisonPoint {
  label: string;
  /** The axis' short label ("janv."); `year` is written under the first one and under each January. */
  tick: string;
  year?: string;
  current: number;
  previous: number;
}

const WIDTH = 640;
const HEIGHT = 260;
const MARGIN = { top: 16, right: 12, bottom: 56, left: 64 };

/**
 * A chart with nothing to draw (no gift in the period, nor a year earlier): no axis and no empty
 * bars, only the sentence that says so, as a report's other sections do.
 */
function NoData({ summary }: { summary: string }) {
  return (
    <p className="rounded-lg bg-gray-50 p-4 text-sm text-gray-800" data-chart-empty="">
      {summary}
    </p>
  );
}

/** Bars for the period, a dotted line for the same months a year earlier. */
export function ComparisonChart({ title, summary, points, currentLabel, previousLabel, format }: {
  title: string;
  summary: string;
  points: ComparisonPoint[];
  currentLabel: string;
  previousLabel: string;
  format: (n: number) => string;
}) {
  const id = useId();
  if (points.every((p) => p.current === 0 && p.previous === 0)) return <NoData summary={summary} />;
  const max = Math.max(1, ...points.flatMap((p) => [p.current, p.previous]));
  const x = scaleBand<string>()
    .domain(points.map((p) => p.label))
    .range([MARGIN.left, WIDTH - MARGIN.right])
    .padding(0.25);
  const y = scaleLinear().domain([0, max]).nice(4).range([HEIGHT - MARGIN.bottom, MARGIN.top]);
  const centre = (label: string) => (x(label) ?? 0) + x.bandwidth() / 2;
  const previousPath = line<ComparisonPoint>()
    .x((p) => centre(p.label))
    .y((p) => y(p.previous))(points);
  // Label every month when they fit, every other one otherwise.
  const step = points.length > 14 ? Math.ceil(points.length / 12) : 1;
  return (
    <figure className="space-y-2">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={`${id}-t`} aria-describedby={`${id}-d`} className="h-auto w-full text-gray-900" data-chart="comparison">
        <title id={`${id}-t`}>{title}</title>
        <desc id={`${id}-d`}>{summary}</desc>
        {y.ticks(4).map((t) => (
          <g key={t} aria-hidden="true">
            <line x1={MARGIN.left} x2={WIDTH - MARGIN.right} y1={y(t)} y2={y(t)} stroke="currentColor" strokeOpacity={0.15} />
            <text x={MARGIN.left - 6} y={y(t)} dy="0.32em" textAnchor="end" fontSize={11} fill="currentColor">
              {format(t)}
            </text>
          </g>
        ))}
        <g className="text-brand-700" aria-hidden="true">
          {points.map((p) => (
            <rect key={p.label} x={x(p.label)} y={y(p.current)} width={x.bandwidth()} height={Math.max(0, y(0) - y(p.current))} fill="currentColor" />
          ))}
        </g>
        <g aria-hidden="true">
          {previousPath && <path d={previousPath} fill="none" stroke="currentColor" strokeWidth={2} strokeDasharray="5 4" />}
          {points.map((p) => (
            <circle key={p.label} cx={centre(p.label)} cy={y(p.previous)} r={4} fill="Canvas" stroke="currentColor" strokeWidth={2} />
          ))}
        </g>
        <g aria-hidden="true">
          {points.map((p, i) =>
            i % step === 0 ? (
              <text key={p.label} x={centre(p.label)} y={HEIGHT - MARGIN.bottom + 14} textAnchor="middle" fontSize={11} fill="currentColor">
                {p.tick}
                {p.year && (
                  <tspan x={centre(p.label)} dy="1.1em">
                    {p.year}
                  </tspan>
                )}
              </text>
            ) : null,
          )}
        </g>
        <g aria-hidden="true" transform={`translate(${MARGIN.left}, ${HEIGHT - 6})`} fontSize={12}>
          <rect width={14} height={10} y={-9} className="text-brand-700" fill="currentColor" />
          <text x={20} fill="currentColor">{currentLabel}</text>
          <line x1={200} x2={222} y1={-4} y2={-4} stroke="currentColor" strokeWidth={2} strokeDasharray="5 4" />
          <circle cx={211} cy={-4} r={4} fill="Canvas" stroke="currentColor" strokeWidth={2} />
          <text x={230} fill="currentColor">{previousLabel}</text>
        </g>
      </svg>
      <figcaption className="text-sm text-gray-700">{summary}</figcaption>
    </figure>
  );
}

export interface ShareItem {
  label: string;
  value: number;
}

/** Horizontal bars, each labelled directly with its name and value (no legend, no colour code). */
export function ShareChart({ title, summary, items, format }: { title: string; summary: string; items: ShareItem[]; format: (n: number) => string }) {
  const id = useId();
  if (items.every((i) => i.value === 0)) return <NoData summary={summary} />;
  const rowHeight = 34;
  const height = items.length * rowHeight + 8;
  // Name on the left, the bar, then its value: room is kept for both.
  const barStart = 200;
  const x = scaleLinear()
    .domain([0, Math.max(1, ...items.map((i) => i.value))])
    .range([0, WIDTH - barStart - 110]);
  return (
    <figure className="space-y-2">
      <svg viewBox={`0 0 ${WIDTH} ${height}`} role="img" aria-labelledby={`${id}-t`} aria-describedby={`${id}-d`} className="h-auto w-full text-gray-900" data-chart="share">
        <title id={`${id}-t`}>{title}</title>
        <desc id={`${id}-d`}>{summary}</desc>
        {items.map((item, i) => (
          <g key={item.label} transform={`translate(0, ${i * rowHeight + 4})`} aria-hidden="true">
            <text x={0} y={rowHeight / 2} dy="0.32em" fontSize={12} fill="currentColor">
              {item.label}
            </text>
            <rect x={barStart} y={6} width={Math.max(item.value > 0 ? 2 : 0, x(item.value))} height={rowHeight - 12} className="text-brand-700" fill="currentColor" />
            <text x={barStart + 6 + x(item.value)} y={rowHeight / 2} dy="0.32em" fontSize={12} fill="currentColor">
              {format(item.value)}
            </text>
          </g>
        ))}
      </svg>
      <figcaption className="text-sm text-gray-700">{summary}</figcaption>
    </figure>
  );
}
