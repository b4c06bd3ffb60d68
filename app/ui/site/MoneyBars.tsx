import { useId } from 'react';

/**
 * The public page's charts (ADR 032): one bar per line, its name above it and its share after it,
 * drawn as SVG on the server (no script). Sized for a phone (its viewBox is 320 wide: at 320 px the
 * text keeps its size); an image with an accessible name and a one-sentence summary, the numbers
 * themselves in the table that follows it. Painted with `currentColor` (forced colours repaint it),
 * labelled directly (no legend, no colour code).
 */
export interface Bar {
  label: string;
  /** 0 to 1. */
  share: number;
  percent: string;
}

const WIDTH = 320;
const ROW = 46;
const BAR_MAX = WIDTH - 56;
/** Names longer than this are cut in the chart (the table says them whole). */
const NAME_MAX = 42;

const shortName = (s: string) => (s.length > NAME_MAX ? `${s.slice(0, NAME_MAX - 1)}…` : s);

export function MoneyBars({ title, summary, bars }: { title: string; summary: string; bars: Bar[] }) {
  const id = useId();
  const height = bars.length * ROW + 4;
  return (
    <svg viewBox={`0 0 ${WIDTH} ${height}`} role="img" aria-labelledby={`${id}-t`} aria-describedby={`${id}-d`} className="h-auto w-full max-w-xl text-gray-900" data-chart="money">
      <title id={`${id}-t`}>{title}</title>
      <desc id={`${id}-d`}>{summary}</desc>
      {bars.map((b, i) => (
        <g key={`${i}-${b.label}`} transform={`translate(0, ${i * ROW})`} aria-hidden="true">
          <text x={0} y={15} fontSize={13} fill="currentColor">
            {shortName(b.label)}
          </text>
          <rect x={0} y={22} width={Math.max(b.share > 0 ? 2 : 0, b.share * BAR_MAX)} height={16} className="text-brand-700" fill="currentColor" />
          <text x={b.share * BAR_MAX + 6} y={30} dy="0.35em" fontSize={13} fontWeight={600} fill="currentColor">
            {b.percent}
          </text>
        </g>
      ))}
    </svg>
  );
}
