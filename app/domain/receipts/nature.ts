/**
 * The nature of a gift as a tax receipt states it (CERFA n° 11580, ADR 030): money ("numéraire"),
 * goods ("en nature", the form's "Autres" box with what was given) or a volunteer's waived
 * expenses ("abandon de frais"). Read from the stored payment's means; shared with the browser.
 */
export const NATURES = ['numeraire', 'nature', 'abandon_frais'] as const;
export type Nature = (typeof NATURES)[number];

/** The back office's word for each nature (register, CSV, lists). */
export const NATURE_LABELS: Record<Nature, string> = { numeraire: 'Numéraire', nature: 'En nature', abandon_frais: 'Abandon de frais' };

/** What the receipt prints as "Nature du don" (the form's "Autres" box for goods and waived expenses). */
export const NATURE_ON_RECEIPT: Record<Nature, string> = { numeraire: 'numéraire', nature: 'en nature (autres)', abandon_frais: 'abandon de frais (autres)' };

/** What the receipt prints as "Forme du don": a hand gift, or the volunteer's written waiver. */
export const FORM_ON_RECEIPT: Record<Nature, string> = {
  numeraire: 'déclaration de don manuel',
  nature: 'déclaration de don manuel',
  abandon_frais: 'autres (renonciation expresse au remboursement des frais)',
};

const OF_MEANS: Readonly<Record<string, Nature>> = { in_kind: 'nature', waived_expenses: 'abandon_frais' };

/** The nature of a stored payment (its `provider` column): anything but goods and waived expenses is money. */
export const natureOfMeans = (provider: string): Nature => (Object.hasOwn(OF_MEANS, provider) ? OF_MEANS[provider] : 'numeraire');

export const isNature = (v: unknown): v is Nature => (NATURES as readonly unknown[]).includes(v);

/** The valid receipts' count and amount of each nature: money apart from goods and waived expenses (the register, its CSV). */
export function issuedByNature(rows: readonly { status: string; nature: string; amount_cents: number }[]): Record<Nature, { count: number; cents: number }> {
  const out = Object.fromEntries(NATURES.map((n) => [n, { count: 0, cents: 0 }])) as Record<Nature, { count: number; cents: number }>;
  for (const r of rows) {
    if (r.status !== 'issued') continue;
    const n = isNature(r.nature) ? r.nature : 'numeraire';
    out[n].count += 1;
    out[n].cents += r.amount_cents;
  }
  return out;
}
