import { describe, expect, it } from 'vitest';
import { CAR_SCALE, SCALE_NAME, lineFor, mileageCents } from '~/domain/offline-gifts/mileage';
import { basisLabel, natureGiftSchema, receiptDescription } from '~/domain/offline-gifts/nature-form';
import { FORM_ON_RECEIPT, NATURE_LABELS, NATURE_ON_RECEIPT, isNature, issuedByNature, natureOfMeans } from '~/domain/receipts/nature';

/** The rules of gifts not in money (ADR 030): the car's mileage scale, the form, the receipt's nature and the register's sums. */
describe('the mileage scale for a volunteer’s car (barème published in 2025)', () => {
  it('values each band of each horsepower as the tax office’s table does, to the cent', () => {
    // Up to 5 000 km: d × a.
    expect([3, 4, 5, 6, 7].map((cv) => mileageCents(1000, cv))).toEqual([52_900, 60_600, 63_600, 66_500, 69_700]);
    expect(mileageCents(5000, 5)).toBe(318_000);
    // From 5 001 to 20 000 km: d × b + c.
    expect(mileageCents(5001, 5)).toBe(Math.round(5001 * 35.7 + 139_500));
    expect([3, 4, 5, 6, 7].map((cv) => mileageCents(10_000, cv))).toEqual([422_500, 473_000, 496_500, 519_700, 545_500]);
    expect(mileageCents(20_000, 7)).toBe(939_500);
    // Beyond 20 000 km: d × e.
    expect([3, 4, 5, 6, 7].map((cv) => mileageCents(20_001, cv))).toEqual([740_037, 814_041, 854_043, 894_045, 940_047]);
    // The worked example of the tax office: 4 000 km in a 5 CV car is 2 544 €.
    expect(mileageCents(4000, 5)).toBe(254_400);
    // 1 km rounds half up to the cent: 0,5290 € → 53 cents; 0,6365 × … stays exact in thousandths.
    expect(mileageCents(1, 3)).toBe(53);
  });

  it('adds 20 % for a 100 % electric car, and shares the lines under 3 CV and over 7 CV', () => {
    expect(mileageCents(1000, 5, true)).toBe(76_320);
    expect(mileageCents(10_000, 4, true)).toBe(567_600);
    expect(lineFor(1)).toBe(CAR_SCALE[3]);
    expect(lineFor(2.9)).toBe(CAR_SCALE[3]);
    expect(lineFor(11)).toBe(CAR_SCALE[7]);
    expect(lineFor(6)).toBe(CAR_SCALE[6]);
    // The gift's row records which scale valued it.
    expect(SCALE_NAME).toBe('Barème kilométrique fiscal (voitures), art. 200 et 83 du CGI, barème publié en 2025');
    // The bands' limits belong to the lower band, where the 6 CV line is not continuous: 3 325 € (not 3 327 €), 8 937 € (not 8 940 €).
    expect([mileageCents(5000, 6), mileageCents(20_000, 6)]).toEqual([332_500, 893_700]);
  });
});

describe('the form of a gift not in money', () => {
  const today = '2026-11-29';
  const base = { intent: 'nature', token: '00000000-0000-4000-8000-000000000000', received_on: today, name: 'Luc', address: '1 rue', postal_code: '44000', city: 'Nantes', country: 'France' };
  const parse = (v: Record<string, string>) => natureGiftSchema(today).safeParse({ ...base, ...v });
  it('computes waived expenses on the scale and takes the typed amount otherwise', () => {
    const scale = parse({ means: 'waived_expenses', description: 'Trajets', basis: 'mileage', km: '1200', horsepower: '5', waiver: 'on', amount: '999' });
    expect(scale.success && scale.data).toMatchObject({ amountCents: 76_320, km: 1200, horsepower: 5, electric: false });
    const goods = parse({ means: 'in_kind', description: 'Riz', basis: 'market', amount: '250,40', km: '10', horsepower: '5', electric: 'on' });
    expect(goods.success && goods.data).toMatchObject({ amountCents: 25_040, km: null, horsepower: null, electric: false });
  });

  it('keeps the scale under the 100 000 € a gift typed by hand may be: 100 000 km in a 7 CV electric car', () => {
    const r = parse({ means: 'waived_expenses', description: 'Trajets', basis: 'mileage', km: '100000', horsepower: '7', waiver: 'on', electric: 'on' });
    expect(r.success && r.data.amountCents).toBe(5_640_000);
    expect(parse({ means: 'waived_expenses', description: 'Trajets', basis: 'mileage', km: '100001', horsepower: '7', waiver: 'on' }).error?.issues.map((i) => i.path.join('.'))).toEqual(['km']);
  });

  it('writes the receipt’s description, and names each basis', () => {
    expect(receiptDescription({ description: 'Riz', km: null, horsepower: null, electric: false })).toBe('Riz');
    expect(receiptDescription({ description: 'Trajets', km: 1200, horsepower: 5, electric: true })).toBe('Trajets (1200 km, voiture de 5 CV électrique, barème kilométrique)');
    expect(['invoice', 'market', 'other', 'invoices', 'mileage', 'autre'].map(basisLabel)).toEqual([
      'Facture',
      'Valeur de marché (prix de vente constaté)',
      'Autre (préciser)',
      'Factures et justificatifs de frais',
      'Barème kilométrique (voiture du bénévole)',
      'autre',
    ]);
  });
});

describe('the nature a receipt states', () => {
  it('reads it from the stored means: goods, waived expenses, and money for anything else', () => {
    expect(['in_kind', 'waived_expenses', 'cheque', 'stripe', 'toString'].map(natureOfMeans)).toEqual(['nature', 'abandon_frais', 'numeraire', 'numeraire', 'numeraire']);
    expect(NATURE_ON_RECEIPT).toEqual({ numeraire: 'numéraire', nature: 'en nature (autres)', abandon_frais: 'abandon de frais (autres)' });
    expect(FORM_ON_RECEIPT).toEqual({ numeraire: 'déclaration de don manuel', nature: 'déclaration de don manuel', abandon_frais: 'autres (renonciation expresse au remboursement des frais)' });
    expect(NATURE_LABELS).toEqual({ numeraire: 'Numéraire', nature: 'En nature', abandon_frais: 'Abandon de frais' });
    expect(['nature', 'numeraire', 'abandon_frais', 'other', 3].map(isNature)).toEqual([true, true, true, false, false]);
  });

  it('sums the valid receipts of each nature; cancelled ones and unknown words count as the register does', () => {
    expect(
      issuedByNature([
        { status: 'issued', nature: 'numeraire', amount_cents: 100 },
        { status: 'issued', nature: 'nature', amount_cents: 2000 },
        { status: 'cancelled', nature: 'nature', amount_cents: 5000 },
        { status: 'issued', nature: 'abandon_frais', amount_cents: 300 },
        { status: 'issued', nature: 'abandon_frais', amount_cents: 30 },
        { status: 'issued', nature: '?', amount_cents: 7 },
      ]),
    ).toEqual({ numeraire: { count: 2, cents: 107 }, nature: { count: 1, cents: 2000 }, abandon_frais: { count: 2, cents: 330 } });
  });
});
