import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ComparisonChart, ShareChart } from '~/ui/admin/charts';

/** The reports' charts (ADR 016) with and without data: without, no axis of "0 €", only the sentence. */
const euros = (cents: number) => `${Math.round(cents / 100)} €`;
const months = (values: [number, number][]) =>
  values.map(([current, previous], i) => ({ label: `mois ${i + 1}`, tick: `m${i + 1}`, current, previous }));
const comparison = (points: ReturnType<typeof months>, summary: string) =>
  renderToStaticMarkup(createElement(ComparisonChart, { title: 'Montant par mois', summary, points, currentLabel: 'Période', previousLabel: 'Un an plus tôt', format: euros }));

describe('report charts', () => {
  it('a period without a gift, nor one a year earlier, draws no axis: only the sentence', () => {
    const html = comparison(months([[0, 0], [0, 0], [0, 0]]), 'Aucun don sur la période.');
    expect(html).not.toContain('<svg');
    expect(html).not.toContain('0 €');
    expect(html).toContain('Aucun don sur la période.');
  });

  it('a period with gifts draws its axis and bars', () => {
    const html = comparison(months([[5000, 0], [0, 4000], [2000, 0]]), '70 € reçus.');
    expect(html).toContain('<svg');
    expect(html).toContain('>50 €<');
    expect(html.match(/<rect /g)?.length).toBeGreaterThanOrEqual(3);
  });

  it('a year earlier alone still draws the chart (its dotted line)', () => {
    expect(comparison(months([[0, 4000], [0, 0]]), 'Aucun don sur la période ; 40 € un an plus tôt.')).toContain('<svg');
  });

  it('shares of nothing draw no bars, only the sentence', () => {
    const share = (values: number[]) =>
      renderToStaticMarkup(createElement(ShareChart, { title: 'Par moyen', summary: 'Aucun don sur la période.', items: values.map((value, i) => ({ label: `moyen ${i}`, value })), format: euros }));
    expect(share([])).not.toContain('<svg');
    expect(share([0, 0])).not.toContain('<svg');
    expect(share([0, 0])).toContain('Aucun don sur la période.');
    expect(share([0, 3000])).toContain('<svg');
  });
});
