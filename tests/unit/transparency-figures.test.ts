import { describe, expect, it } from 'vitest';
import { centsForForm, commentIn, EMPTY_FIGURES, formRecord, parseAccountAmount, readFigures, yearFiguresSchema, yearTotals, type YearFigures } from '~/domain/transparency/figures';
import { percentIn, yearSummary } from '~/domain/transparency/summary';
import en from '~/locales/en';
import fr from '~/locales/fr';

const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');
const YEAR: YearFigures = {
  giftsCents: 70_000_00,
  duesCents: 5_000_00,
  otherResources: [{ label: 'Subventions', cents: 25_000_00 }],
  missions: [{ projectId: 'p1', label: 'Forages', cents: 60_000_00 }, { projectId: null, label: 'Bourses', cents: 22_000_00 }],
  fundraisingCents: 10_000_00,
  runningCents: 8_000_00,
  comment: { fr: 'Bonne année.', en: '  ', es: 'Buen año.' },
};

describe('where the money goes: the figures (ADR 032)', () => {
  it('reads amounts of the accounts: thousands groups, a comma or a point, zero, up to a billion euros', () => {
    expect(parseAccountAmount('1 250 000')).toBe(125_000_000);
    expect(parseAccountAmount('1\u202f250\u00a0000,5')).toBe(125_000_050);
    expect(parseAccountAmount(' 12.34 ')).toBe(1234);
    expect(parseAccountAmount('0')).toBe(0);
    expect(parseAccountAmount('1000000000')).toBe(1_000_000_000_00);
    for (const wrong of ['1000000000,01', '-5', '12,345', '1 25 000', '12 3456', 'dix', '', '1,2,3', '1e5']) expect(parseAccountAmount(wrong), wrong).toBeNull();
    expect(centsForForm(125_000_050)).toBe('1250000,50');
    expect(centsForForm(1205)).toBe('12,05');
    expect(centsForForm(0)).toBe('0');
  });

  it('gathers a flat form into rows, in their order, and keeps the rest as it is', () => {
    expect(formRecord([['gifts', '1'], ['missions.1.amount', '5'], ['missions.0.label', 'A'], ['otherResources.0.label', 'B'], ['missions.100.amount', 'x'], ['missions.0.other', 'y']])).toEqual({
      gifts: '1',
      missions: [{ label: 'A' }, { amount: '5' }],
      otherResources: [{ label: 'B' }],
      'missions.100.amount': 'x',
      'missions.0.other': 'y',
    });
    expect(formRecord([['missions.1.amount', '5']])).toEqual({ missions: [{}, { amount: '5' }] });
  });

  it('validates a year: blank rows ignored, a project or a label per mission, a project’s French title kept', () => {
    const schema = yearFiguresSchema(new Map([['p1', 'Forages']]));
    const ok = schema.parse(formRecord(Object.entries({ gifts: '10', dues: '0', fundraising: '1', running: '2', 'missions.0.project': 'p1', 'missions.0.amount': '3', 'missions.1.label': 'Libre', 'missions.1.amount': '4', 'missions.2.label': '', 'otherResources.0.label': ' ', published: 'on' })));
    expect(ok).toEqual({
      figures: { giftsCents: 1000, duesCents: 0, otherResources: [], missions: [{ projectId: 'p1', label: 'Forages', cents: 300 }, { projectId: null, label: 'Libre', cents: 400 }], fundraisingCents: 100, runningCents: 200, comment: { fr: '', en: '', es: '' } },
      published: true,
    });
    const refused = schema.safeParse(formRecord(Object.entries({ gifts: '10', dues: '0', fundraising: '1', running: '2', 'missions.0.amount': '3', 'otherResources.0.amount': 'abc', 'otherResources.0.label': 'X' })));
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['otherResources.0.amount', 'Un montant en euros, 0 ou plus (ex. 1 250 000 ou 1250000,50), un milliard au plus.'],
      ['missions.0.label', 'Choisissez un projet ou écrivez un libellé.'],
    ]);
    expect(schema.safeParse(formRecord(Object.entries({ gifts: '1', dues: '1', fundraising: '1', running: '1', ...Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`otherResources.${i}.label`, 'x'])) }))).error?.issues[0].message).toBe('6 lignes au plus.');
  });

  it('sums each side and each part’s share of it (0 when a side is empty)', () => {
    const t = yearTotals(YEAR);
    expect(t).toMatchObject({ resourcesCents: 100_000_00, usesCents: 100_000_00, otherCents: 25_000_00, missionsCents: 82_000_00, missionsShare: 0.82, fundraisingShare: 0.1, runningShare: 0.08, publicShare: 0.7 });
    expect(yearTotals(EMPTY_FIGURES)).toMatchObject({ resourcesCents: 0, usesCents: 0, missionsShare: 0, publicShare: 0 });
  });

  it('writes a year out in a language: rows, totals, shares and sentences', () => {
    const s = yearSummary(YEAR, 'fr', fr);
    expect(s.resources.map((r) => [r.label, plain(r.amount), plain(r.percent)])).toEqual([
      ['Dons du public', '70 000,00 €', '70 %'],
      ['Cotisations', '5 000,00 €', '5 %'],
      ['Subventions', '25 000,00 €', '25 %'],
    ]);
    expect(s.uses.map((r) => r.label)).toEqual(['Missions sociales', 'Frais de collecte', 'Frais de fonctionnement']);
    expect(s.missions.map((r) => plain(r.percent))).toEqual(['73 %', '27 %']);
    expect(plain(s.missionsTotal.percent)).toBe('100 %');
    expect(plain(s.headline)).toBe('82 % pour les missions sociales');
    expect(plain(s.usesSentence)).toBe('100 000,00 € employés : 82 % pour les missions sociales, 10 % pour la collecte, 8 % pour le fonctionnement.');
    expect(plain(s.missionsSentence)).toBe('82 000,00 € pour les missions sociales, réparties entre 2 postes.');
    expect(yearSummary(YEAR, 'en', en).headline).toBe('82% for social missions');
    expect(percentIn('en', 0.825)).toBe('83%');
  });

  it('reads back a stored document, an unreadable or partial one as empty parts; a comment falls back to French', () => {
    expect(readFigures(JSON.stringify(YEAR))).toEqual(YEAR);
    expect(readFigures('pas du json')).toEqual(EMPTY_FIGURES);
    expect(readFigures(JSON.stringify({ giftsCents: -3, duesCents: 1.5, missions: [{ cents: 4 }], otherResources: 'x', comment: { en: 'Hi' } }))).toEqual({ ...EMPTY_FIGURES, missions: [{ projectId: null, label: '', cents: 4 }], comment: { fr: '', en: 'Hi', es: '' } });
    expect(commentIn(YEAR, 'en')).toBe('Bonne année.');
    expect(commentIn(YEAR, 'es')).toBe('Buen año.');
  });
});

describe('where the money goes: each row’s messages (ADR 032)', () => {
  const schema = yearFiguresSchema(new Map([['p1', 'Forages']]));
  const base = { gifts: '1', dues: '1', fundraising: '1', running: '1' };
  const issues = (form: Record<string, string>) => {
    const r = schema.safeParse(formRecord(Object.entries({ ...base, ...form })));
    return r.success ? [] : r.error.issues.map((i) => ({ code: i.code, path: i.path.join('.'), message: i.message }));
  };

  it('names the field and says what is missing, for resources and missions alike', () => {
    expect(issues({ 'otherResources.0.amount': '5', 'otherResources.1.label': 'Legs', 'otherResources.1.amount': '  ', 'missions.0.project': 'p9', 'missions.0.amount': '2', 'missions.1.label': 'Libre', 'missions.1.amount': '1,234', 'missions.2.amount': '7', gifts: '', dues: 'x', commentEs: 'é'.repeat(501) })).toEqual([
      { code: 'too_small', path: 'gifts', message: 'Champ obligatoire.' },
      { code: 'custom', path: 'dues', message: 'Un montant en euros, 0 ou plus (ex. 1 250 000 ou 1250000,50), un milliard au plus.' },
      { code: 'custom', path: 'otherResources.0.label', message: 'Nommez cette ressource (ex. Subventions, Legs).' },
      { code: 'custom', path: 'otherResources.1.amount', message: 'Le montant de cette ligne est obligatoire.' },
      { code: 'custom', path: 'missions.0.project', message: 'Ce projet n’existe plus : choisissez-en un autre ou écrivez un libellé.' },
      { code: 'custom', path: 'missions.1.amount', message: 'Un montant en euros, 0 ou plus (ex. 1 250 000 ou 1250000,50), un milliard au plus.' },
      { code: 'custom', path: 'missions.2.label', message: 'Choisissez un projet ou écrivez un libellé.' },
      { code: 'too_big', path: 'commentEs', message: '500 caractères au plus.' },
    ]);
    expect(issues({ gifts: undefined as never })).toEqual([{ code: 'invalid_type', path: 'gifts', message: 'Champ obligatoire.' }]);
  });

  it('keeps filled rows only, with their labels; a project’s own label wins over its title; publishing only when ticked', () => {
    const ok = schema.parse(formRecord(Object.entries({ ...base, 'otherResources.0.label': 'Legs', 'otherResources.0.amount': '0', 'otherResources.1.label': '', 'missions.0.project': 'p1', 'missions.0.label': 'Puits', 'missions.0.amount': '1', published: 'true' })));
    expect(ok.figures.otherResources).toEqual([{ label: 'Legs', cents: 0 }]);
    expect(ok.figures.missions).toEqual([{ projectId: 'p1', label: 'Puits', cents: 100 }]);
    expect(ok.published).toBe(true);
    for (const [v, published] of [['on', true], [true, true], ['', false], ['off', false], [false, false], [undefined, false]] as const) expect(schema.parse({ ...base, published: v }).published, String(v)).toBe(published);
    expect(schema.parse(base).figures).toMatchObject({ otherResources: [], missions: [] });
  });

  it('writes the totals and the resources sentence', () => {
    const s = yearSummary(YEAR, 'fr', fr);
    expect([s.resourcesTotal.label, plain(s.resourcesTotal.amount), plain(s.resourcesTotal.percent)]).toEqual(['Total', '100 000,00 €', '100 %']);
    expect([s.usesTotal.label, s.missionsTotal.label, plain(s.missionsTotal.amount)]).toEqual(['Total', 'Total', '82 000,00 €']);
    expect(plain(s.resourcesSentence)).toBe('100 000,00 € de ressources, dont 70 % de dons du public.');
    expect(readFigures(JSON.stringify({ otherResources: [{ cents: 1 }], giftsCents: 0, duesCents: '5' })).otherResources).toEqual([{ label: '', cents: 1 }]);
    expect(readFigures(JSON.stringify({ giftsCents: 0, duesCents: '5', runningCents: 3 }))).toMatchObject({ giftsCents: 0, duesCents: 0, runningCents: 3 });
    expect(commentIn({ ...YEAR, comment: { fr: ' Texte ', en: '', es: '' } }, 'en')).toBe('Texte');
    expect(centsForForm(300)).toBe('3');
  });
});
