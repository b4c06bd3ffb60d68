import type { AnnualReceiptRow, HistoryRow } from '~/domain/donors/personal-data.server';
import type { GiftStatus, MonthlyGiftView } from '~/domain/donations/monthly.server';
import { meansText } from '~/domain/means/means';
import { AMOUNT_PATTERN } from '~/domain/donations/money';
import { debitOf } from '~/domain/donations/status';
import { formatMoney } from '~/lib/currency';
import type { Lang, MessageKey, useI18n } from '~/lib/i18n';
import { buttonClass } from '~/ui/primitives/ButtonLink';
import { useSitePath } from '~/ui/primitives/links';
import { MembershipPanel, type MembershipPanelItem } from '~/ui/site/MembershipPanel';

/**
 * The donor space's page (/mon-espace, ADR 013) once signed in: gifts and receipts, annual
 * statements, monthly gifts, memberships, news, export and erasure. Server-rendered plain forms,
 * one per intent, all posting to the route's action (app/routes/donors/space.tsx), which works
 * without JavaScript.
 */

/** What the action answers when it refuses a form: the message, and the gift or field it concerns. */
export type DonorSpaceError = { error: MessageKey; gift?: string; field?: 'email' | 'amount' | 'erase'; values?: Record<string, string>; vars?: Record<string, string | number> };

/** What the signed-in page shows (the loader's answer). */
export interface DonorSpaceData {
  email: string;
  history: HistoryRow[];
  monthly: MonthlyGiftView[];
  newsletter: boolean;
  annualReceipts: AnnualReceiptRow[];
  memberships: MembershipPanelItem[];
}

const STATUS: Record<string, MessageKey> = {
  succeeded: 'donorSpace.statusSucceeded',
  failed: 'donorSpace.statusFailed',
  pending: 'donorSpace.statusPending',
  processing: 'donorSpace.statusProcessing',
  cancelled: 'donorSpace.statusCancelled',
  refunded: 'donorSpace.statusRefunded',
  adopted: 'donorSpace.statusAdopted',
};
const GIFT_STATUS: Record<GiftStatus, MessageKey> = {
  active: 'donorSpace.giftActive',
  paused: 'donorSpace.giftPaused',
  past_due: 'donorSpace.giftPastDue',
  ended: 'donorSpace.giftEnded',
};

function Alert({ id, text }: { id?: string; text: string }) {
  return (
    <p id={id} role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 font-medium text-red-900">
      {text}
    </p>
  );
}

const inputCls = (invalid: boolean) => `mt-1 block w-full rounded-md border px-3 py-2.5 text-base ${invalid ? 'border-red-700' : 'border-gray-400'}`;
const sectionCls = 'mt-10 rounded-xl border border-gray-200 p-6 shadow-sm';

/** Signed out: the form that mails a single-use sign-in link. */
export function SignInForm({ err, errText, t }: { err: DonorSpaceError | null; errText: string; t: ReturnType<typeof useI18n>['t'] }) {
  const space = useSitePath()('/mon-espace');
  return (
    <form method="post" action={space} className="mt-8 max-w-xl space-y-5" noValidate>
      <input type="hidden" name="intent" value="link" />
      <p className="text-lg text-gray-700">{t('donorSpace.signInIntro')}</p>
      {err?.field === 'email' && <Alert id="email-error" text={errText} />}
      <div>
        <label htmlFor="donor-email" className="block font-medium">{t('donorSpace.email')}</label>
        <input id="donor-email" name="email" type="email" autoComplete="email" required maxLength={254} defaultValue={err?.values?.email ?? ''} aria-invalid={err?.field === 'email' ? true : undefined} aria-describedby={err?.field === 'email' ? 'email-error' : undefined} className={inputCls(err?.field === 'email')} />
      </div>
      <button type="submit" className={buttonClass('primary')}>{t('donorSpace.sendLink')}</button>
    </form>
  );
}

/** Signed in: every section, each form posting its intent. */
export function SignedIn({ data: d, err, errText, t, lang, formatDate }: { data: DonorSpaceData; err: DonorSpaceError | null; errText: string; t: ReturnType<typeof useI18n>['t']; lang: Lang; formatDate: (iso: string) => string }) {
  const money = (minor: number, currency: string) => formatMoney(minor, currency, lang);
  const space = useSitePath()('/mon-espace');
  const hasReceipts = d.history.some((h) => h.receiptUrl);
  return (
    <>
      <div className="mt-4 flex flex-wrap items-center gap-4">
        <p className="text-gray-700 wrap-anywhere">{t('donorSpace.signedInAs', { email: d.email })}</p>
        <form method="post" action={space}>
          <input type="hidden" name="intent" value="signout" />
          <button type="submit" className="min-h-11 font-semibold text-brand-800 underline">{t('donorSpace.signOut')}</button>
        </form>
      </div>
      {err && !err.field && !d.monthly.some((g) => g.id === err.gift) && <div className="mt-6"><Alert text={errText} /></div>}

      {d.memberships.length > 0 && <MembershipPanel memberships={d.memberships} className={sectionCls} />}

      <section aria-labelledby="monthly-title" className={sectionCls}>
        <h2 id="monthly-title" className="text-2xl font-bold">{t('donorSpace.monthlyTitle')}</h2>
        {d.monthly.length === 0 && <p className="mt-3 text-gray-700">{t('donorSpace.noMonthly')}</p>}
        <ul className="mt-4 space-y-6">
          {d.monthly.map((g) => {
            const mine = err?.gift === g.id;
            const amountId = `amount-${g.id}`;
            const errId = `gift-error-${g.id}`;
            // A SEPA gift speaks of the donor's account, not a card (ADR 029).
            const debit = g.method === 'sepa_debit';
            const mandate = debitOf({ account_last4: g.accountLast4, mandate_ref: g.mandateRef, mandate_signed_at: g.mandateSignedAt });
            return (
              <li key={g.id} className="rounded-lg border border-gray-200 p-4">
                <h3 className="text-xl font-semibold">{t('donorSpace.perMonth', { amount: money(g.amountMinor, g.currency) })}</h3>
                <p className="mt-1 text-gray-700">
                  <span data-gift-status>{t(debit && g.status === 'past_due' ? 'donorSpace.giftPastDueAccount' : GIFT_STATUS[g.status])}</span> · {t('donorSpace.since', { date: formatDate(g.startedAt) })}
                </p>
                {mandate && <p className="mt-1 text-gray-700 wrap-anywhere" data-mandate>{t('donorSpace.mandate', { last4: mandate.last4, reference: mandate.reference, date: formatDate(mandate.signedAt) })}</p>}
                {mine && <div className="mt-3"><Alert id={errId} text={errText} /></div>}
                {g.status !== 'ended' && (
                  <div className="mt-4 space-y-4">
                    <form method="post" action={space} className="flex flex-wrap items-end gap-3" noValidate>
                      <input type="hidden" name="intent" value="amount" />
                      <input type="hidden" name="gift" value={g.id} />
                      <div>
                        <label htmlFor={amountId} className="block font-medium">{t('donorSpace.newAmount')}</label>
                        <input id={amountId} name="amount" inputMode="decimal" autoComplete="off" maxLength={12} required pattern={AMOUNT_PATTERN} defaultValue={mine && err?.field === 'amount' ? err.values?.amount : ''} aria-invalid={mine && err?.field === 'amount' ? true : undefined} aria-describedby={`${amountId}-note${mine ? ` ${errId}` : ''}`} className={inputCls(Boolean(mine && err?.field === 'amount'))} />
                        <p id={`${amountId}-note`} className="mt-1 text-sm text-gray-700">{t('donorSpace.amountNote')}</p>
                      </div>
                      <button type="submit" className={buttonClass('primary')}>{t('donorSpace.changeAmount')}</button>
                    </form>
                    <div className="flex flex-wrap gap-3">
                      <form method="post" action={space}>
                        <input type="hidden" name="intent" value={g.status === 'paused' ? 'resume' : 'pause'} />
                        <input type="hidden" name="gift" value={g.id} />
                        <button type="submit" className={buttonClass('secondary')}>{t(g.status === 'paused' ? 'donorSpace.resume' : 'donorSpace.pause')}</button>
                      </form>
                      <form method="post" action={space}>
                        <input type="hidden" name="intent" value="card" />
                        <input type="hidden" name="gift" value={g.id} />
                        <button type="submit" className={buttonClass('secondary')}>{t(debit ? 'donorSpace.updateAccount' : 'donorSpace.updateCard')}</button>
                      </form>
                      <form method="post" action={space}>
                        <input type="hidden" name="intent" value="stop" />
                        <input type="hidden" name="gift" value={g.id} />
                        <button type="submit" className={buttonClass('secondary', 'border-red-800 text-red-800 hover:bg-red-50')}>{t('donorSpace.stop')}</button>
                      </form>
                    </div>
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      </section>

      <section aria-labelledby="history-title" className={sectionCls}>
        <h2 id="history-title" className="text-2xl font-bold">{t('donorSpace.historyTitle')}</h2>
        {d.history.length === 0 ? (
          <p className="mt-3 text-gray-700">{t('donorSpace.noGifts')}</p>
        ) : (
          <div className="mt-4 overflow-x-auto" role="region" aria-labelledby="history-title" tabIndex={0}>
            <table className="min-w-full text-left text-sm">
              <thead className="bg-gray-50">
                <tr>
                  <th scope="col" className="px-3 py-2">{t('donorSpace.colDate')}</th>
                  <th scope="col" className="px-3 py-2">{t('donorSpace.colAmount')}</th>
                  <th scope="col" className="px-3 py-2">{t('donorSpace.colCharged')}</th>
                  <th scope="col" className="px-3 py-2">{t('donorSpace.colMethod')}</th>
                  <th scope="col" className="px-3 py-2">{t('donorSpace.colType')}</th>
                  <th scope="col" className="px-3 py-2">{t('donorSpace.colStatus')}</th>
                  {hasReceipts && <th scope="col" className="px-3 py-2">{t('donorSpace.colReceipt')}</th>}
                </tr>
              </thead>
              <tbody className="divide-y divide-gray-200">
                {d.history.map((h) => (
                  <tr key={h.id}>
                    <td className="px-3 py-2 whitespace-nowrap">{formatDate(h.date)}</td>
                    <td className="px-3 py-2 whitespace-nowrap">{h.eurCents === null ? '' : money(h.eurCents, 'EUR')}</td>
                    <td className="px-3 py-2 whitespace-nowrap">{money(h.amountMinor, h.currency)}</td>
                    <td className="px-3 py-2">
                      {meansText(h.provider, t)}
                      {h.debit && <span className="block text-xs text-gray-700" data-mandate>{t('donorSpace.mandate', { last4: h.debit.last4, reference: h.debit.reference, date: formatDate(h.debit.signedAt) })}</span>}
                    </td>
                    <td className="px-3 py-2">{t(h.purpose === 'dues' ? 'donorSpace.dues' : h.frequency === 'monthly' ? 'donorSpace.monthly' : 'donorSpace.once')}</td>
                    <td className="px-3 py-2">{STATUS[h.status] ? t(STATUS[h.status]) : h.status}</td>
                    {hasReceipts && <td className="px-3 py-2">{h.receiptUrl && <a href={h.receiptUrl} className="font-semibold text-brand-800 underline">{t('donorSpace.receiptDownload')}</a>}</td>}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      {d.annualReceipts.length > 0 && (
        <section aria-labelledby="annual-receipts-title" className={sectionCls}>
          <h2 id="annual-receipts-title" className="text-2xl font-bold">{t('donorSpace.annualReceiptsTitle')}</h2>
          <ul className="mt-4 space-y-3">
            {d.annualReceipts.map((r) => (
              <li key={r.id} className="flex flex-wrap items-center gap-x-4 gap-y-1">
                <span>{t('donorSpace.annualReceiptLine', { year: r.year, amount: money(r.amountCents, 'EUR'), number: r.number, date: formatDate(r.issuedAt) })}</span>
                <a href={r.url} className="font-semibold text-brand-800 underline">{t('donorSpace.annualReceiptDownload', { year: r.year })}</a>
              </li>
            ))}
          </ul>
        </section>
      )}

      <section aria-labelledby="data-title" className={sectionCls}>
        <h2 id="data-title" className="text-2xl font-bold">{t('donorSpace.dataTitle')}</h2>
        <p className="mt-3 text-gray-700">{t('donorSpace.dataIntro')}</p>
        <div className="mt-4 flex flex-wrap gap-3">
          <a href="/mon-espace/export/json" download className={buttonClass('secondary')}>{t('donorSpace.downloadJson')}</a>
          <a href="/mon-espace/export/csv" download className={buttonClass('secondary')}>{t('donorSpace.downloadCsv')}</a>
        </div>
        {d.newsletter && (
          <form method="post" action={space} className="mt-6 flex flex-wrap items-center gap-3">
            <input type="hidden" name="intent" value="newsletter-off" />
            <p className="text-gray-700">{t('donorSpace.newsletterOn')}</p>
            <button type="submit" className={buttonClass('secondary')}>{t('donorSpace.newsletterWithdraw')}</button>
          </form>
        )}
        <h3 className="mt-8 text-xl font-semibold">{t('donorSpace.eraseTitle')}</h3>
        <form method="post" action={space} className="mt-3 space-y-4" noValidate>
          <input type="hidden" name="intent" value="erase" />
          <p className="text-gray-700">{t('donorSpace.eraseText')}</p>
          {err?.field === 'erase' && <Alert id="erase-error" text={errText} />}
          <label className="flex min-h-11 items-center gap-2">
            <input type="checkbox" name="confirm" value="yes" required className="h-4 w-4" aria-describedby={err?.field === 'erase' ? 'erase-error' : undefined} />
            {t('donorSpace.eraseConfirm')}
          </label>
          <button type="submit" className={buttonClass('secondary', 'border-red-800 text-red-800 hover:bg-red-50')}>{t('donorSpace.eraseButton')}</button>
        </form>
      </section>
    </>
  );
}
