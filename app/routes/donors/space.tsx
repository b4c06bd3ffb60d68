/**
 * /mon-espace, the donor space (ADR 013): one page, signed out (the sign-in link's form) or signed
 * in (gifts and receipts, annual statements, monthly gifts, memberships, news, export and erasure).
 * It runs over 350 lines because every one of those sections posts to this one action (a form per
 * intent, working without JavaScript); the rules live in the donors, donations and membership areas.
 */
import { data, redirect } from 'react-router';
import type { Route } from './+types/space';
import { donationDeps } from '~/domain/donations/deps.server';
import { formatMoney } from '~/lib/currency';
import { AMOUNT_PATTERN, parseEuroAmount } from '~/domain/donations/money';
import { ProviderError } from '~/domain/donations/providers/types';
import { endDonorSession, requestSignInLink } from '~/domain/donors/links.server';
import { sendDonorMail, spaceUrl } from '~/domain/donations/donor-mail.server';
import { MONTHLY_MAX_CENTS, MONTHLY_MIN_CENTS, cardUpdateUrl, changeGift, giftOfDonor, monthlyGiftsOf, type GiftChange, type GiftStatus } from '~/domain/donations/monthly.server';
import { annualReceiptsOf, donorRef, eraseDonorData, historyOf } from '~/domain/donors/personal-data.server';
import { today } from '~/domain/content/forms';
import { renewalToken, renewalUrl } from '~/domain/membership/reminders.server';
import { membershipsOfEmail } from '~/domain/membership/space.server';
import { getsNews, leave } from '~/domain/subscribers/leave.server';
import { assertSameOrigin, isSecure } from '~/lib/origin.server';
import { useI18n, type Lang, type MessageKey } from '~/lib/i18n';
import { detectLang } from '~/lib/i18n.server';
import { log } from '~/lib/log.server';
import { pageMeta } from '~/lib/page-meta';
import { requestInfoContext } from '~/lib/request-context.server';
import { db, runtime } from '~/lib/runtime.server';
import { buttonClass } from '~/ui/primitives/ButtonLink';
import { MembershipPanel } from '~/ui/site/MembershipPanel';
import { NO_STORE, donorCookie, donorOf, donorToken, requireDonor } from './session.server';

/** What a redirect after an action says on arrival (?ok=…). */
const NOTICES = {
  sent: 'donorSpace.linkSent',
  amount: 'donorSpace.amountChanged',
  paused: 'donorSpace.pausedDone',
  resumed: 'donorSpace.resumedDone',
  stopped: 'donorSpace.stoppedDone',
  newsletter: 'donorSpace.newsletterWithdrawn',
  erased: 'donorSpace.erased',
  out: 'donorSpace.signedOut',
} as const satisfies Record<string, MessageKey>;
type Notice = keyof typeof NOTICES;

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const ok = url.searchParams.get('ok');
  const notice = ok && ok in NOTICES ? (ok as Notice) : null;
  const amount = url.searchParams.get('amount');
  const donor = await donorOf(request);
  if (!donor) return data({ signedIn: false as const, notice, amount }, { headers: NO_STORE });
  const [history, monthly, newsletter, annualReceipts, memberships] = await Promise.all([historyOf(db(), donor.email), monthlyGiftsOf(db(), donor.email), getsNews(db(), donor.email), annualReceiptsOf(db(), donor.email), membershipsOfEmail(db(), donor.email, today())]);
  // The member's card and renewal (ADR 021): the renewal page's signed link, as the reminders mail it.
  const { lang } = detectLang(request);
  const members = memberships.map((m) => ({ ...m, cardUrl: `/mon-espace/carte/${encodeURIComponent(m.id)}`, renewUrl: m.exempt ? null : renewalUrl(undefined, lang, renewalToken(runtime().secret, m.id)) }));
  return data({ signedIn: true as const, notice, amount, email: donor.email, history, monthly, newsletter, annualReceipts, memberships: members }, { headers: NO_STORE });
}

export function headers() {
  return NO_STORE;
}

type ActionResult = { error: MessageKey; gift?: string; field?: 'email' | 'amount' | 'erase'; values?: Record<string, string>; vars?: Record<string, string | number> };
const fail = (r: ActionResult, status = 400, headers: Record<string, string> = {}) => data(r, { status, headers: { ...NO_STORE, ...headers } });
const done = (notice: Notice, extra = '') => redirect(`/mon-espace?ok=${notice}${extra}`, { headers: NO_STORE });

const CHANGES: Record<string, GiftChange['kind']> = { amount: 'amount', pause: 'paused', resume: 'resumed', stop: 'stopped' };

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const { lang } = detectLang(request);
  const form = await request.formData();
  const str = (k: string) => {
    const v = form.get(k);
    return typeof v === 'string' ? v.slice(0, 300) : '';
  };
  const intent = str('intent');

  if (intent === 'link') {
    const deps = await donationDeps(request);
    const { clientIp } = context.get(requestInfoContext);
    // The single-use link goes only to a trusted origin (ADR 010): from a request that named another
    // Host, nothing is sent, and the visitor is answered as always.
    const deliver = async (email: string, token: string) => {
      if (!deps.publicUrl) {
        log.warn('donor sign-in mail not sent: PUBLIC_URL is not set and the request came to a host that is not trusted');
        return;
      }
      await sendDonorMail(deps, email, lang, 'donorMail.signInSubject', ['donorMail.signIn', 'donorMail.signInNote'], { url: spaceUrl(deps.publicUrl, lang, `/mon-espace/connexion?t=${token}`) });
    };
    // The lookup, the link and its mail come after the answer: known and unknown emails answer
    // alike, after the same work.
    const after = (job: () => Promise<void>) =>
      setImmediate(() => job().catch((e) => log.error('donor sign-in link failed', { error: e instanceof Error ? e.message : String(e) })));
    const answer = await requestSignInLink(db(), { email: str('email'), ip: clientIp, deliver, after });
    if (answer.status === 'invalid') return fail({ error: 'donorSpace.invalidEmail', field: 'email', values: { email: str('email') } });
    if (answer.status === 'limited') {
      return fail({ error: 'donorSpace.tooMany', field: 'email', values: { email: str('email') }, vars: { minutes: Math.max(1, Math.ceil(answer.retryAfter / 60)) } }, 429, { 'Retry-After': String(answer.retryAfter) });
    }
    return done('sent');
  }

  const donor = await requireDonor(request);
  const actor = { id: null, name: donorRef(donor.email) };

  if (intent === 'signout') {
    await endDonorSession(db(), donorToken(request));
    throw redirect('/mon-espace?ok=out', { headers: { 'Set-Cookie': donorCookie('', 0, isSecure(request)), ...NO_STORE } });
  }
  if (intent === 'newsletter-off') {
    // The one way out of the news (issue 39): the list, the gifts' and the memberships' consents.
    await leave(db(), donor.email, 'space');
    return done('newsletter');
  }
  if (intent === 'erase') {
    if (str('confirm') !== 'yes') return fail({ error: 'donorSpace.eraseNeedsConfirm', field: 'erase' });
    const result = await eraseDonorData(db(), donor.email, actor);
    if (!result.ok) return fail({ error: 'donorSpace.eraseActive', field: 'erase' }, 409);
    throw redirect('/mon-espace?ok=erased', { headers: { 'Set-Cookie': donorCookie('', 0, isSecure(request)), ...NO_STORE } });
  }

  const kind = CHANGES[intent];
  if (!kind && intent !== 'card') return fail({ error: 'donorSpace.giftNotFound' });
  const giftId = str('gift');
  const target = await giftOfDonor(db(), donor.email, giftId);
  if (!target) return fail({ error: 'donorSpace.giftNotFound', gift: giftId }, 404);
  const deps = await donationDeps(request);
  try {
    if (intent === 'card') {
      const url = await cardUpdateUrl(deps, target, { source: 'donor', actor });
      throw redirect(url, { status: 303, headers: NO_STORE });
    }
    if (kind === 'amount') {
      const parsed = parseEuroAmount(str('amount'));
      if (!parsed.ok || parsed.cents < MONTHLY_MIN_CENTS || parsed.cents > MONTHLY_MAX_CENTS) {
        return fail({ error: 'donorSpace.invalidAmount', gift: giftId, field: 'amount', values: { amount: str('amount') } });
      }
      const gift = await changeGift(deps, target, { kind, amountMinor: parsed.cents }, { source: 'donor', actor });
      return done('amount', `&amount=${encodeURIComponent(formatMoney(gift.amount_minor, gift.currency, lang))}`);
    }
    await changeGift(deps, target, { kind } as GiftChange, { source: 'donor', actor });
    return done(kind);
  } catch (e) {
    if (!(e instanceof ProviderError)) throw e;
    log.warn('monthly gift change failed', { gift: giftId, intent, error: e.message });
    return fail({ error: 'donorSpace.providerError', gift: giftId }, 502);
  }
}

export const meta: Route.MetaFunction = (args) => [
  ...pageMeta(args, (i18n) => ({ title: i18n.t('donorSpace.title'), description: i18n.t('donorSpace.metaDescription') })),
  { name: 'robots', content: 'noindex' },
];

const STATUS: Record<string, MessageKey> = {
  succeeded: 'donorSpace.statusSucceeded',
  failed: 'donorSpace.statusFailed',
  pending: 'donorSpace.statusPending',
  cancelled: 'donorSpace.statusCancelled',
  refunded: 'donorSpace.statusRefunded',
};
const METHOD: Record<string, MessageKey> = {
  stripe: 'donorSpace.methodCard',
  paypal: 'donorSpace.methodPaypal',
  coingate: 'donorSpace.methodCrypto',
  flutterwave: 'donorSpace.methodMobile',
  mobile_link: 'donorSpace.methodMobile',
  cash: 'donorSpace.methodCash',
  cheque: 'donorSpace.methodCheque',
  transfer: 'donorSpace.methodTransfer',
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

export default function DonorSpace({ loaderData, actionData }: Route.ComponentProps) {
  const { t, lang, formatDate } = useI18n();
  const err = actionData ?? null;
  const notice = loaderData.notice ? t(NOTICES[loaderData.notice], { amount: loaderData.amount ?? '' }) : null;
  const errText = err ? t(err.error, err.vars) : '';
  return (
    <div className="mx-auto max-w-4xl px-4 py-16 sm:px-6">
      <h1 className="text-4xl font-extrabold">{t('donorSpace.title')}</h1>
      {notice && (
        <p role="status" className="mt-6 rounded-md border border-green-200 bg-green-50 p-3 font-medium text-green-900">
          {notice}
        </p>
      )}
      {!loaderData.signedIn ? (
        <form method="post" action="/mon-espace" className="mt-8 max-w-xl space-y-5" noValidate>
          <input type="hidden" name="intent" value="link" />
          <p className="text-lg text-gray-700">{t('donorSpace.signInIntro')}</p>
          {err?.field === 'email' && <Alert id="email-error" text={errText} />}
          <div>
            <label htmlFor="donor-email" className="block font-medium">{t('donorSpace.email')}</label>
            <input id="donor-email" name="email" type="email" autoComplete="email" required maxLength={254} defaultValue={err?.values?.email ?? ''} aria-invalid={err?.field === 'email' ? true : undefined} aria-describedby={err?.field === 'email' ? 'email-error' : undefined} className={inputCls(err?.field === 'email')} />
          </div>
          <button type="submit" className={buttonClass('primary')}>{t('donorSpace.sendLink')}</button>
        </form>
      ) : (
        <SignedIn data={loaderData} err={err} errText={errText} t={t} lang={lang} formatDate={formatDate} />
      )}
    </div>
  );
}

type SignedInData = Extract<Route.ComponentProps['loaderData'], { signedIn: true }>;

function SignedIn({ data: d, err, errText, t, lang, formatDate }: { data: SignedInData; err: ActionResult | null; errText: string; t: ReturnType<typeof useI18n>['t']; lang: Lang; formatDate: (iso: string) => string }) {
  const money = (minor: number, currency: string) => formatMoney(minor, currency, lang);
  const hasReceipts = d.history.some((h) => h.receiptUrl);
  return (
    <>
      <div className="mt-4 flex flex-wrap items-center gap-4">
        <p className="text-gray-700 wrap-anywhere">{t('donorSpace.signedInAs', { email: d.email })}</p>
        <form method="post" action="/mon-espace">
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
            return (
              <li key={g.id} className="rounded-lg border border-gray-200 p-4">
                <h3 className="text-xl font-semibold">{t('donorSpace.perMonth', { amount: money(g.amountMinor, g.currency) })}</h3>
                <p className="mt-1 text-gray-700">
                  <span data-gift-status>{t(GIFT_STATUS[g.status])}</span> · {t('donorSpace.since', { date: formatDate(g.startedAt) })}
                </p>
                {mine && <div className="mt-3"><Alert id={errId} text={errText} /></div>}
                {g.status !== 'ended' && (
                  <div className="mt-4 space-y-4">
                    <form method="post" action="/mon-espace" className="flex flex-wrap items-end gap-3" noValidate>
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
                      <form method="post" action="/mon-espace">
                        <input type="hidden" name="intent" value={g.status === 'paused' ? 'resume' : 'pause'} />
                        <input type="hidden" name="gift" value={g.id} />
                        <button type="submit" className={buttonClass('secondary')}>{t(g.status === 'paused' ? 'donorSpace.resume' : 'donorSpace.pause')}</button>
                      </form>
                      <form method="post" action="/mon-espace">
                        <input type="hidden" name="intent" value="card" />
                        <input type="hidden" name="gift" value={g.id} />
                        <button type="submit" className={buttonClass('secondary')}>{t('donorSpace.updateCard')}</button>
                      </form>
                      <form method="post" action="/mon-espace">
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
                    <td className="px-3 py-2">{METHOD[h.provider] ? t(METHOD[h.provider]) : h.provider}</td>
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
          <form method="post" action="/mon-espace" className="mt-6 flex flex-wrap items-center gap-3">
            <input type="hidden" name="intent" value="newsletter-off" />
            <p className="text-gray-700">{t('donorSpace.newsletterOn')}</p>
            <button type="submit" className={buttonClass('secondary')}>{t('donorSpace.newsletterWithdraw')}</button>
          </form>
        )}
        <h3 className="mt-8 text-xl font-semibold">{t('donorSpace.eraseTitle')}</h3>
        <form method="post" action="/mon-espace" className="mt-3 space-y-4" noValidate>
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
