import { describe, expect, it } from 'vitest';
import type { CampaignInput } from '~/domain/campaigns/campaigns';
import { AMOUNT_SLOTS, CAMPAIGN_TEXT_KEYS, campaignFormValues, campaignInputOf, campaignSchema } from '~/domain/campaigns/schema';

/** What an Éditeur sends: the three titles, and whatever the test adds. */
const ok = { 'fr.title': 'Puits', 'en.title': 'Well', 'es.title': 'Pozo' };
/** The errors the form shows, as `field: message`. */
const issues = (v: Record<string, string>) => (campaignSchema.safeParse(v).error?.issues ?? []).map((i) => `${String(i.path[0])}: ${i.message}`);
/** The parsed form (throws on an error). */
const parsed = (v: Record<string, string>) => campaignSchema.parse({ ...ok, ...v }) as Record<string, string>;
/** The campaign a valid form describes. */
const input = (v: Record<string, string>) => campaignInputOf(campaignSchema.parse({ ...ok, ...v }));

const AMOUNT_ERROR = 'Montant invalide : un nombre positif en euros, 2 décimales au plus, 100 000 € au plus.';
const DATE_ERROR = 'Saisissez une date valide (AAAA-MM-JJ).';
const SLUG_ERROR = "L'adresse ne peut contenir que des lettres minuscules sans accent, des chiffres et des tirets (ex. : un-puits-a-kaya).";
const LINE_ERROR = 'Indiquez le montant de cette ligne (ou effacez son impact).';
/** A campaign with nothing but its titles (and an address). */
const BARE: CampaignInput = {
  slug: 'kaya',
  status: 'draft',
  image: '',
  goalCents: null,
  startsOn: null,
  endsOn: null,
  projectId: null,
  translations: { fr: { title: 'Puits', summary: '', story: '' }, en: { title: 'Well', summary: '', story: '' }, es: { title: 'Pozo', summary: '', story: '' } },
  amounts: [],
};

describe('campaign form: what an Éditeur gets back', () => {
  it('names the four amount lines amount1…amount4, each with an impact per language', () => {
    expect(AMOUNT_SLOTS).toEqual([1, 2, 3, 4]);
    expect(CAMPAIGN_TEXT_KEYS).toEqual(['title', 'summary', 'story', 'impact1', 'impact2', 'impact3', 'impact4']);
  });

  it('fills what is left out: a draft, no address, no goal, no dates, no project, no amounts', () => {
    expect(campaignSchema.parse(ok)).toEqual({
      slug: '',
      status: 'draft',
      image: '',
      goal: '',
      startsOn: '',
      endsOn: '',
      projectId: '',
      amount1: '',
      amount2: '',
      amount3: '',
      amount4: '',
      ...Object.fromEntries(
        ['fr', 'en', 'es'].flatMap((l) => [
          [`${l}.title`, ok[`${l}.title` as keyof typeof ok]],
          [`${l}.summary`, ''],
          [`${l}.story`, ''],
          ...[1, 2, 3, 4].map((i) => [`${l}.impact${i}`, '']),
        ]),
      ),
    });
    expect(input({})).toEqual({ ...BARE, slug: '' });
  });

  it('takes each status, and says to choose one otherwise', () => {
    for (const status of ['draft', 'active', 'ended']) expect(input({ status }).status).toBe(status);
    expect(issues({ ...ok, status: 'archived' })).toEqual(['status: Choisissez un statut.']);
    expect(issues({ ...ok, status: '' })).toEqual(['status: Choisissez un statut.']);
  });

  it('reads the goal in euros: cents from "25", "25,50", "25.5", "1 000", blank is no goal', () => {
    expect(input({ goal: '25' }).goalCents).toBe(2500);
    expect(input({ goal: '25,50' }).goalCents).toBe(2550);
    expect(input({ goal: '25.5' }).goalCents).toBe(2550);
    expect(input({ goal: ' 25 ' }).goalCents).toBe(2500);
    expect(parsed({ goal: ' 25 ' }).goal).toBe('25');
    expect(input({ goal: '1 000' }).goalCents).toBe(100_000);
    expect(input({ goal: '1\u00a0000,50' }).goalCents).toBe(100_050);
    expect(input({ goal: '100\u202f000' }).goalCents).toBe(10_000_000);
    expect(parsed({ goal: '12 345,6' }).goal).toBe('12345,6');
    expect(input({ goal: '0,01' }).goalCents).toBe(1);
    expect(input({ goal: '100000' }).goalCents).toBe(10_000_000);
    expect(input({ goal: '' }).goalCents).toBeNull();
    expect(input({ goal: '   ' }).goalCents).toBeNull();
  });

  it('refuses a goal that is not a positive amount of 100 000 € at most with 2 decimals', () => {
    for (const bad of ['0', '0,00', '-5', '100000,01', '100 000,01', '200000', '25,505', '0,001', 'vingt', '25 €', '1,000.50', '1.000,50', '2 5', '1 00', '1000 000', '1  000', '0001 000', '1 000 5', '1 000 000', '0 100 000'])
      expect(issues({ ...ok, goal: bad }), bad).toEqual([`goal: ${AMOUNT_ERROR}`]);
  });

  it('checks the dates: a real day as AAAA-MM-JJ, blank is none, the end not before the start', () => {
    expect(input({ startsOn: ' 2026-12-01 ', endsOn: '2026-12-31' })).toMatchObject({ startsOn: '2026-12-01', endsOn: '2026-12-31' });
    for (const bad of ['2026-02-30', '01/12/2026', '2026-12', 'demain'])
      expect(issues({ ...ok, startsOn: bad, endsOn: bad }), bad).toEqual([`startsOn: ${DATE_ERROR}`, `endsOn: ${DATE_ERROR}`]);
    expect(input({ startsOn: '   ', endsOn: '' })).toMatchObject({ startsOn: null, endsOn: null });
    // One day is a campaign of a day; either date alone is fine.
    expect(issues({ ...ok, startsOn: '2026-12-01', endsOn: '2026-12-01' })).toEqual([]);
    expect(issues({ ...ok, startsOn: '2026-12-01' })).toEqual([]);
    expect(input({ startsOn: '2026-12-01' })).toMatchObject({ startsOn: '2026-12-01', endsOn: null });
    expect(issues({ ...ok, endsOn: '2026-12-01' })).toEqual([]);
    expect(input({ endsOn: '2026-12-01' })).toMatchObject({ startsOn: null, endsOn: '2026-12-01' });
    expect(campaignSchema.safeParse({ ...ok, startsOn: '2026-12-02', endsOn: '2026-12-01' }).error?.issues).toEqual([
      { code: 'custom', path: ['endsOn'], message: 'La date de fin doit suivre la date de début.' },
    ]);
  });

  it('takes an address in lowercase, trimmed, 80 characters at most', () => {
    expect(parsed({ slug: '  Un-Puits-A-Kaya ' }).slug).toBe('un-puits-a-kaya');
    expect(input({ slug: 'a'.repeat(80) }).slug).toBe('a'.repeat(80));
    expect(issues({ ...ok, slug: 'a'.repeat(81) })).toEqual(["slug: L'adresse ne peut pas dépasser 80 caractères."]);
    for (const bad of ['un puits', 'école', '-kaya', 'un--puits', 'kaya!'])
      expect(issues({ ...ok, slug: bad }), bad).toEqual([`slug: ${SLUG_ERROR}`]);
    expect(input({ slug: '' }).slug).toBe('');
  });

  it('links a project by its id, trimmed, none when blank', () => {
    expect(input({ projectId: ' proj-1 ' }).projectId).toBe('proj-1');
    expect(input({ projectId: 'p'.repeat(100) }).projectId).toBe('p'.repeat(100));
    expect(issues({ ...ok, projectId: 'p'.repeat(101) })).toEqual(['projectId: Choisissez un projet de la liste.']);
    expect(input({ projectId: '  ' }).projectId).toBeNull();
  });

  it('keeps the texts trimmed within their limits', () => {
    const t = input({ 'fr.title': '  Un puits  ', 'en.summary': ' A well ', 'es.story': '<p>Historia</p>' }).translations;
    expect(t).toEqual({
      fr: { title: 'Un puits', summary: '', story: '' },
      en: { title: 'Well', summary: 'A well', story: '' },
      es: { title: 'Pozo', summary: '', story: '<p>Historia</p>' },
    });
    expect(issues({ ...ok, 'fr.title': '   ' })).toEqual(['fr.title: Le titre est obligatoire en français.']);
    expect(issues({ ...ok, 'es.title': '' })).toEqual(['es.title: Le titre est obligatoire en español.']);
    expect(issues({ ...ok, 'fr.summary': 's'.repeat(500) })).toEqual([]);
    expect(issues({ ...ok, 'fr.summary': 's'.repeat(501) })).toEqual(['fr.summary: Ce champ ne peut pas dépasser 500 caractères.']);
    expect(issues({ ...ok, 'en.impact3': 'i'.repeat(201), amount3: '5' })).toEqual(['en.impact3: Ce champ ne peut pas dépasser 200 caractères.']);
  });

  it('reads each amount line with its impacts; an impact needs an amount, an amount needs no impact', () => {
    for (const i of AMOUNT_SLOTS) {
      for (const l of ['fr', 'en', 'es']) expect(issues({ ...ok, [`${l}.impact${i}`]: 'un kit' }), `${l}.impact${i}`).toEqual([`amount${i}: ${LINE_ERROR}`]);
      expect(issues({ ...ok, [`amount${i}`]: 'dix' })).toEqual([`amount${i}: ${AMOUNT_ERROR}`]);
      expect(input({ [`amount${i}`]: '10', [`fr.impact${i}`]: ' un kit ' }).amounts).toEqual([{ cents: 1000, impact: { fr: 'un kit', en: '', es: '' } }]);
    }
    expect(issues({ ...ok, 'fr.impact1': 'un kit', amount1: '25' })).toEqual([]);
    expect(issues({ ...ok, 'en.impact4': 'a kit', amount4: '5' })).toEqual([]);
    // An impact left blank (spaces only) asks for no amount.
    expect(issues({ ...ok, 'es.impact2': '   ' })).toEqual([]);
    expect(
      campaignSchema.safeParse({ ...ok, 'fr.impact3': 'un kit', amount1: '25' }).error?.issues,
    ).toEqual([{ code: 'custom', path: ['amount3'], message: LINE_ERROR }]);
    // Empty lines are dropped, the others kept in order.
    expect(
      input({ amount2: '25', 'fr.impact2': '25 € = un kit', 'en.impact2': '€25 = a kit', 'es.impact2': '25 € = un kit', amount4: '1 000', amount3: '' }).amounts,
    ).toEqual([
      { cents: 2500, impact: { fr: '25 € = un kit', en: '€25 = a kit', es: '25 € = un kit' } },
      { cents: 100_000, impact: { fr: '', en: '', es: '' } },
    ]);
  });

  it('shows a saved campaign in the form, and reads it back the same', () => {
    const saved: CampaignInput = {
      slug: 'un-puits-a-kaya',
      status: 'active',
      image: '/media/puits.jpg',
      goalCents: 1_000_050,
      startsOn: '2026-12-01',
      endsOn: '2026-12-31',
      projectId: 'proj-1',
      translations: {
        fr: { title: 'Un puits', summary: 'Eau', story: '<p>Kaya</p>' },
        en: { title: 'A well', summary: 'Water', story: '<p>Kaya</p>' },
        es: { title: 'Un pozo', summary: 'Agua', story: '<p>Kaya</p>' },
      },
      amounts: [
        { cents: 2500, impact: { fr: 'un kit', en: 'a kit', es: 'un kit' } },
        { cents: 5005, impact: { fr: 'deux kits', en: 'two kits', es: 'dos kits' } },
      ],
    };
    const values = campaignFormValues(saved);
    expect(values).toMatchObject({
      slug: 'un-puits-a-kaya',
      status: 'active',
      image: '/media/puits.jpg',
      goal: '10000.50',
      startsOn: '2026-12-01',
      endsOn: '2026-12-31',
      projectId: 'proj-1',
      amount1: '25.00',
      amount2: '50.05',
      amount3: '',
      amount4: '',
      'fr.title': 'Un puits',
      'en.summary': 'Water',
      'es.story': '<p>Kaya</p>',
      'fr.impact1': 'un kit',
      'en.impact2': 'two kits',
      'es.impact2': 'dos kits',
      'fr.impact3': '',
      'es.impact4': '',
    });
    expect(Object.keys(values)).toHaveLength(7 + 4 + 3 * 7);
    expect(campaignInputOf(campaignSchema.parse(values))).toEqual(saved);
  });

  it('shows blanks for what a campaign does not have', () => {
    const values = campaignFormValues(BARE);
    expect(values).toMatchObject({ goal: '', startsOn: '', endsOn: '', projectId: '', amount1: '', amount2: '', amount3: '', amount4: '', 'fr.impact1': '', 'en.impact4': '' });
    expect(campaignInputOf(campaignSchema.parse(values))).toEqual(BARE);
  });
});
