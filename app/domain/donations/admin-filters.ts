import { METHOD_MEANS, storedAs, type Means } from '~/domain/means/means';
import { DONATION_STATUSES, PAYMENT_MEANS, type DonationStatus, type PaymentMeans } from './status';

/** The means filter's choices: each provider or offline means, and after a provider the means its methods name (SEPA debits apart from cards, ADR 029). */
export const FILTER_MEANS: readonly (PaymentMeans | Means)[] = PAYMENT_MEANS.flatMap((p) => [p, ...METHOD_MEANS.filter((m) => storedAs(m) === p)]);
export type FilterMeans = (typeof FILTER_MEANS)[number];

/** The donations screen's filters, read from the query string (shared with the browser). */
export interface DonationQuery {
  period: 'month' | 'last-month' | 'year' | 'all' | 'custom';
  from: string;
  to: string;
  provider: FilterMeans | '';
  status: DonationStatus | '';
  /** A campaign's id (campaigns, #16); '' for every gift. */
  campaign: string;
}

/** The period filter's choices, in the order the screens list them. */
export const PERIOD_LABELS: Record<DonationQuery['period'], string> = {
  month: 'Ce mois-ci',
  'last-month': 'Le mois dernier',
  year: 'Cette année',
  all: 'Tout',
  custom: 'Dates choisies',
};

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function readDonationQuery(params: URLSearchParams): DonationQuery {
  const period = params.get('period');
  // Stryker disable next-line StringLiteral: any text that is not a provider reads as ''
  const provider = params.get('provider') ?? '';
  // Stryker disable next-line StringLiteral: any text that is not a status reads as ''
  const status = params.get('status') ?? '';
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const campaign = params.get('campaign') ?? '';
  return {
    period: period === 'last-month' || period === 'year' || period === 'all' || period === 'custom' ? period : period === 'month' ? 'month' : from || to ? 'custom' : 'month',
    from: DATE.test(from) ? from : '',
    to: DATE.test(to) ? to : '',
    provider: (FILTER_MEANS as readonly string[]).includes(provider) ? (provider as FilterMeans) : '',
    status: (DONATION_STATUSES as readonly string[]).includes(status) ? (status as DonationStatus) : '',
    campaign: /^[\w-]{1,60}$/.test(campaign) ? campaign : '',
  };
}

/** [from, to) as ISO instants (UTC) for a query. */
export function periodRange(q: DonationQuery, now = new Date()): { from?: string; to?: string } {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  switch (q.period) {
    case 'month':
      return { from: new Date(Date.UTC(y, m, 1)).toISOString() };
    case 'last-month':
      return { from: new Date(Date.UTC(y, m - 1, 1)).toISOString(), to: new Date(Date.UTC(y, m, 1)).toISOString() };
    case 'year':
      return { from: new Date(Date.UTC(y, 0, 1)).toISOString() };
    case 'all':
      return {};
    case 'custom': {
      const to = q.to ? new Date(`${q.to}T00:00:00Z`) : undefined;
      if (to) to.setUTCDate(to.getUTCDate() + 1);
      return { from: q.from ? `${q.from}T00:00:00.000Z` : undefined, to: to?.toISOString() };
    }
  }
}
