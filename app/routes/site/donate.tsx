import { data, redirect } from 'react-router';
import type { Route } from './+types/donate';
import { donationDeps } from '~/domain/donations/deps.server';
import { NEWSLETTER_FIELD, NEWSLETTER_TICKED, newsletterTicked } from '~/domain/donors/consent';
import { cardPresets, donateMethods, givingForPage } from '~/domain/giving/choices.server';
import { GIVING_FIELDS, METHOD_RULES } from '~/domain/giving/form';
import { startGift } from '~/domain/giving/start.server';
import { fieldName, TAX_FIELDS } from '~/domain/receipts/donor-details';
import { receiptOffer } from '~/domain/receipts/settings.server';
import { detectLang } from '~/lib/i18n.server';
import { NO_STORE } from '~/lib/cache-headers';
import { formError } from '~/lib/form-errors.server';
import { pageMeta } from '~/lib/page-meta';
import { requestInfoContext } from '~/lib/request-context.server';
import { runtime } from '~/lib/runtime.server';
import { DonatePage, type DonateError } from '~/ui/site/DonatePage';
import { donatePageCsp, donateScripts, type Method } from './donate.server';
import { formPageHeaders } from '~/lib/action-headers';

/**
 * /faire-un-don: the loader reads which methods are on offer and the shown one (donateMethods, the
 * giving area), the campaign designated and the presets; the action starts a gift (startGift) and
 * answers. The page itself: app/ui/site/DonatePage.tsx.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const deps = await donationDeps(request);
  const s = deps.settings;
  const query = new URL(request.url).searchParams;
  const { available, methods, method, mobile, paypalClientId, needsScript } = donateMethods(s, query.get('m'));
  // Campaigns (#16): ?campagne={slug} designates the gift; its suggested amounts replace the presets.
  const { lang } = detectLang(request);
  const giving = await givingForPage(s, query.get('campagne') ?? '', lang);
  const presets = cardPresets(giving, s, lang);
  const csp = donatePageCsp(deps, available);
  // The page is the same for every visitor (issue 40: the appeal day's path), so the HTML cache
  // keeps it per tab and campaign (server/app.ts), purged when content or payment settings change;
  // a made-up campaign or tab is answered but never kept.
  const known = (!query.has('m') || methods.some((m) => m === query.get('m'))) && (!query.get('campagne') || giving.chosen !== null || Boolean(giving.notice?.title));
  return data({
    methods,
    method,
    presets,
    mobile,
    paypalClientId,
    script: needsScript ? (runtime().assets.donate ?? null) : null,
    // The fee line follows the amount (on the methods that may carry fees, when a fee percentage is set).
    feeScript: giving.feePercent > 0 && method && METHOD_RULES[method].fees ? (runtime().assets.fees ?? null) : null,
    scriptUrls: donateScripts(deps),
    ...(await receiptOffer(deps.db)),
    giving,
  }, { headers: { 'Content-Security-Policy': csp, ...(known ? {} : NO_STORE) } });
}

/**
 * The page names the provider scripts it may load, and its CSP allows exactly their origins. A
 * form's answer (what the donor typed, its errors) is the donor's own: never stored.
 */
export const headers = (args: Route.HeadersArgs) => formPageHeaders(args);

/** The card, crypto and payment-link forms (an answer is the donor's own: never stored): the gift is started by startGift (the giving rules); the page answers. */
export async function action({ request, context }: Route.ActionArgs) {
  const { lang } = detectLang(request);
  const form = await request.formData();
  const fields = Object.fromEntries([...form].flatMap(([k, v]) => (typeof v === 'string' ? [[k, v.slice(0, 1000)]] : [])));
  const str = (k: string) => (fields[k] ?? '').slice(0, k === 'dedicationMessage' ? 500 : 200);
  const intent = str('intent') as Method;
  // What the donor typed comes back with any error, so it is not retyped (the receipt's fieldset too).
  const values = Object.fromEntries(['amount', 'preset', 'frequency', 'email', ...GIVING_FIELDS].map((k) => [k, str(k)]));
  values.newsletter = newsletterTicked(fields[NEWSLETTER_FIELD]) ? NEWSLETTER_TICKED : '';
  const taxTyped = Object.fromEntries((['optOut', 'ifi', ...TAX_FIELDS] as const).map((f) => [f, str(fieldName(f))]));
  if (!(['card', 'crypto', 'mobileMoney'] as string[]).includes(intent)) return formError<DonateError>({ method: intent, error: 'donate.unavailable', values }, 400, NO_STORE);
  const { clientIp } = context.get(requestInfoContext);
  const r = await startGift(await donationDeps(request), { method: intent === 'mobileMoney' ? 'mobileLink' : intent, fields, lang, clientIp });
  if (r.ok) return redirect(r.url!, 303);
  const headers = r.retryAfter ? { ...NO_STORE, 'Retry-After': String(r.retryAfter) } : NO_STORE;
  return formError<DonateError>({ method: intent, error: r.error, detail: r.detail, vars: r.vars, values, tax: r.tax ?? { errors: [], values: taxTyped } }, r.status, headers);
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, (i18n) => ({ title: i18n.t('donate.title'), description: i18n.t('donate.metaDescription') }));

export default function Donate({ loaderData, actionData }: Route.ComponentProps) {
  return <DonatePage loaderData={loaderData} actionData={actionData} />;
}
