/**
 * /mon-espace, the donor space (ADR 013): one page, signed out (the sign-in link's form) or signed
 * in (gifts and receipts, annual statements, monthly gifts, memberships, news, export and erasure).
 * Every section posts to this one action (a form per intent, working without JavaScript); this route
 * maps each intent to HTTP (form, cookies, redirects, statuses), the rules live in the donors,
 * donations (donor-gifts.server.ts for the monthly gifts) and membership areas, and the page's
 * sections in app/ui/site/DonorSpace.tsx.
 */
import { data, redirect } from 'react-router';
import type { Route } from './+types/space';
import { donationDeps } from '~/domain/donations/deps.server';
import { formatMoney } from '~/lib/currency';
import { endDonorSession, requestSignInLink } from '~/domain/donors/links.server';
import { sendDonorMail, spaceUrl } from '~/domain/donations/donor-mail.server';
import { applyDonorGiftIntent, isDonorGiftIntent } from '~/domain/donations/donor-gifts.server';
import { giftOfDonor, monthlyGiftsOf } from '~/domain/donations/monthly.server';
import { annualReceiptsOf, donorRef, eraseDonorData, historyOf } from '~/domain/donors/personal-data.server';
import { today } from '~/domain/content/forms';
import { renewalToken, renewalUrl } from '~/domain/membership/reminders.server';
import { membershipsOfEmail } from '~/domain/membership/space.server';
import { getsNews, leave } from '~/domain/subscribers/leave.server';
import { assertSameOrigin, isSecure } from '~/lib/origin.server';
import { formError } from '~/lib/form-errors.server';
import { sitePath, useI18n, type Lang, type MessageKey } from '~/lib/i18n';
import { detectLang } from '~/lib/i18n.server';
import { log } from '~/lib/log.server';
import { pageMeta } from '~/lib/page-meta';
import { requestInfoContext } from '~/lib/request-context.server';
import { db, runtime } from '~/lib/runtime.server';
import { SignInForm, SignedIn, type DonorSpaceError } from '~/ui/site/DonorSpace';
import { NO_STORE, donorOf, donorSessionHeaders, donorToken, requireDonor } from './session.server';

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
  const members = memberships.map((m) => ({ ...m, cardUrl: `/mon-espace/carte/${encodeURIComponent(m.id)}${lang === 'fr' ? '' : `?lng=${lang}`}`, renewUrl: m.exempt ? null : renewalUrl(undefined, lang, renewalToken(runtime().secret, m.id)) }));
  return data({ signedIn: true as const, notice, amount, email: donor.email, history, monthly, newsletter, annualReceipts, memberships: members }, { headers: NO_STORE });
}

export function headers() {
  return NO_STORE;
}

const fail = (r: DonorSpaceError, status = 400, headers: Record<string, string> = {}) => formError(r, status, { ...NO_STORE, ...headers });
const done = (lang: Lang, notice: Notice, extra = '') => redirect(sitePath(lang, `/mon-espace?ok=${notice}${extra}`), { headers: NO_STORE });

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
    return done(lang, 'sent');
  }

  const donor = await requireDonor(request);
  const actor = { id: null, name: donorRef(donor.email) };

  if (intent === 'signout') {
    await endDonorSession(db(), donorToken(request));
    throw redirect(sitePath(lang, '/mon-espace?ok=out'), { headers: donorSessionHeaders('', 0, isSecure(request)) });
  }
  if (intent === 'newsletter-off') {
    // The one way out of the news (issue 39): the list, the gifts' and the memberships' consents.
    await leave(db(), donor.email, 'space');
    return done(lang, 'newsletter');
  }
  if (intent === 'erase') {
    if (str('confirm') !== 'yes') return fail({ error: 'donorSpace.eraseNeedsConfirm', field: 'erase' });
    const result = await eraseDonorData(db(), donor.email, actor);
    if (!result.ok) return fail({ error: 'donorSpace.eraseActive', field: 'erase' }, 409);
    throw redirect(sitePath(lang, '/mon-espace?ok=erased'), { headers: donorSessionHeaders('', 0, isSecure(request)) });
  }

  if (!isDonorGiftIntent(intent)) return fail({ error: 'donorSpace.giftNotFound' });
  const giftId = str('gift');
  const target = await giftOfDonor(db(), donor.email, giftId);
  if (!target) return fail({ error: 'donorSpace.giftNotFound', gift: giftId }, 404);
  const outcome = await applyDonorGiftIntent(await donationDeps(request), target, intent, str('amount'), actor);
  if (outcome.ok && outcome.kind === 'card') throw redirect(outcome.url, { status: 303, headers: NO_STORE });
  if (outcome.ok && outcome.kind === 'amount') return done(lang, 'amount', `&amount=${encodeURIComponent(formatMoney(outcome.gift.amount_minor, outcome.gift.currency, lang))}`);
  if (outcome.ok) return done(lang, outcome.kind);
  if (outcome.error === 'invalidAmount') return fail({ error: 'donorSpace.invalidAmount', gift: giftId, field: 'amount', values: { amount: str('amount') } });
  log.warn('monthly gift change failed', { gift: giftId, intent, error: outcome.message });
  return fail({ error: 'donorSpace.providerError', gift: giftId }, 502);
}

export const meta: Route.MetaFunction = (args) => [
  ...pageMeta(args, (i18n) => ({ title: i18n.t('donorSpace.title'), description: i18n.t('donorSpace.metaDescription') })),
  { name: 'robots', content: 'noindex' },
];

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
      {!loaderData.signedIn ? <SignInForm err={err} errText={errText} t={t} /> : <SignedIn data={loaderData} err={err} errText={errText} t={t} lang={lang} formatDate={formatDate} />}
    </div>
  );
}
