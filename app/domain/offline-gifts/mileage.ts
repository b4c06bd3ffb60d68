/**
 * The mileage scale for a volunteer's car (ADR 030). Since 1 January 2022 (article 200 of the CGI,
 * as amended by the loi de finances pour 2022) a volunteer's car expenses are valued with the
 * employees' "barème kilométrique" (article 83, 3° of the CGI; annexe IV, article 6 B): by fiscal
 * horsepower and distance, increased by 20 % for a 100 % electric car. The scale for 2024's
 * journeys, published in 2025, was not changed from 2023's, and is the latest published: the one
 * used for 2025 until the tax office publishes another (then add a line here). Shared with the
 * browser (the form shows the computed amount): no server imports.
 */

/** One horsepower's line: up to 5 000 km d × a; from 5 001 to 20 000 km d × b + c; beyond, d × e (coefficients in thousandths of a euro, c in euros). */
interface Line {
  a: number;
  b: number;
  c: number;
  e: number;
}

/** The cars' scale by fiscal horsepower, 3 CV and less up to 7 CV and more (impots.gouv.fr, barème 2024 published in 2025). */
export const CAR_SCALE: Readonly<Record<3 | 4 | 5 | 6 | 7, Line>> = {
  3: { a: 529, b: 316, c: 1065, e: 370 },
  4: { a: 606, b: 340, c: 1330, e: 407 },
  5: { a: 636, b: 357, c: 1395, e: 427 },
  6: { a: 665, b: 374, c: 1457, e: 447 },
  7: { a: 697, b: 394, c: 1515, e: 470 },
};

/** The scale's name as the gift's valuation records it. */
export const SCALE_NAME = 'Barème kilométrique fiscal (voitures), art. 200 et 83 du CGI, barème publié en 2025';

export const MAX_KM = 100_000;

/** The scale's line for a car of `horsepower` fiscal CV: 3 and less share a line, as do 7 and more. */
export function lineFor(horsepower: number): Line {
  const cv = Math.min(7, Math.max(3, Math.trunc(horsepower))) as 3 | 4 | 5 | 6 | 7;
  return CAR_SCALE[cv];
}

/**
 * The value in euro cents of `km` kilometres driven in a car of `horsepower` fiscal CV, rounded to
 * the cent; an electric car's value is increased by 20 %. Integers throughout (thousandths of a
 * euro), so that no floating point rounding changes a cent.
 */
export function mileageCents(km: number, horsepower: number, electric = false): number {
  const l = lineFor(horsepower);
  const d = Math.trunc(km);
  // In thousandths of a euro; 5 000 km is in the first band, 20 000 km in the second ("jusqu'à", "de 5 001 à 20 000").
  const millis = d <= 5000 ? d * l.a : d <= 20_000 ? d * l.b + l.c * 1000 : d * l.e;
  // In ten-thousandths of a euro (× 1.2 for an electric car), then to cents, rounded half up.
  const scaled = electric ? millis * 12 : millis * 10;
  return Math.round(scaled / 100);
}
