import { giftCents } from '~/domain/campaigns/giving';
import { choiceLabel, isCfa } from '~/domain/means/means';
import { AMOUNT_PATTERN } from '~/domain/donations/money';
import { NEWSLETTER_TICKED } from '~/domain/donors/consent';
import type { GivingView } from '~/domain/giving/choices.server';
import { METHOD_RULES, type TabMethod as Method } from '~/domain/giving/form';
import type { TaxFieldError } from '~/domain/receipts/donor-details';
import { formatMoney } from '~/lib/currency';
import { useI18n, type MessageKey } from '~/lib/i18n';
import { ButtonLink, buttonClass } from '~/ui/primitives/ButtonLink';
import { SiteLink, useSitePath } from '~/ui/primitives/links';
import { GivingOptions } from '~/ui/site/GivingOptions';
import { NewsletterConsent } from '~/ui/site/NewsletterConsent';
import { TaxReceiptFields } from '~/ui/site/TaxReceiptFields';

/** The discreet link to where the money goes (ADR 032), under the page's introduction. */
function MoneyLink({ label }: { label: string }) {
  return (
    <p className="mt-2">
      <SiteLink to="/ou-va-votre-argent" className="inline-flex min-h-11 items-center text-sm font-medium text-brand-700 underline" data-testid="money-link">
        {label}
      </SiteLink>
    </p>
  );
}

/**
 * The donate page (/faire-un-don, app/routes/site/donate.tsx): a tab per method on offer and the
 * shown method's form (card, crypto and payment link post to the route's action and work without
 * JavaScript; PayPal and the mobile money checkout run in the page's script).
 */

/** What the action answers when it refuses a form: the method's form comes back with the message and what was typed. */
export type DonateError = { method: Method; error: MessageKey; detail?: string; vars?: Record<string, string>; values: Record<string, string>; tax?: { errors: TaxFieldError[]; values: Record<string, string> } };

/** What the page shows (the loader's answer). */
export interface DonatePageData {
  methods: Method[];
  method: Method | null;
  presets: { id: string; name: string; cents: number }[];
  mobile: { mode: 'api' | 'link'; currency: string; publicKey: string } | null;
  paypalClientId: string;
  script: string | null;
  feeScript: string | null;
  /** The browser script of a tab whose checkout opens in the page (its provider's). */
  scriptUrls: Partial<Record<Method, string>>;
  receipts: boolean;
  /** The IFI option (article 978), when the foundation is eligible (ADR 035). */
  ifi: boolean;
  giving: GivingView;
}

const inputCls = (invalid: boolean) => `mt-1 block w-full rounded-md border px-3 py-2.5 text-base ${invalid ? 'border-red-700' : 'border-gray-400'}`;

function ErrorText({ id, error, detail, vars }: { id: string; error: MessageKey; detail?: string; vars?: Record<string, string> }) {
  const { t } = useI18n();
  return (
    <p id={id} role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 font-medium text-red-900">
      {t(error, { ...vars, message: detail ? t(detail as MessageKey) : '' })}
    </p>
  );
}

export function DonatePage({ loaderData, actionData }: { loaderData: DonatePageData; actionData: DonateError | undefined }) {
  const { t, lang } = useI18n();
  const sitePath = useSitePath();
  const { methods, presets, mobile, giving } = loaderData;
  const method = actionData?.method && methods.includes(actionData.method) ? actionData.method : loaderData.method;
  const back = actionData && actionData.method === method ? actionData : null;
  const taxBack = back?.tax;
  // The news box comes back ticked with any error of its form (amount, email, receipt details).
  const newsletterBack = back?.values.newsletter === NEWSLETTER_TICKED;
  const err = actionData && actionData.method === method && !taxBack?.errors.length ? actionData : null;
  const taxFields = loaderData.receipts ? <TaxReceiptFields prefix={method ?? 'donate'} values={taxBack?.values} errors={taxBack?.errors} ifi={loaderData.ifi} /> : null;
  const errId = 'donate-error';
  const emailErr = err?.error === 'donate.invalidEmail' || err?.error === 'donate.cryptoEmailRequired';
  // Campaigns (#16): the designation travels with every tab and form; the options share one component.
  const chosenSlug = err?.values.campaign ?? giving.chosen?.slug ?? '';
  const campaignQuery = giving.chosen ? `&campagne=${encodeURIComponent(giving.chosen.slug)}` : '';
  const presetChecked = err?.values.preset ?? (giving.chosen && presets[0] ? presets[0].id : '');
  // The options a method can carry (METHOD_RULES): the form offers those only.
  const givingOptions = (m: Method, cents: number | null) => (
    <GivingOptions idPrefix={m === 'mobileMoney' ? 'mobile' : m} campaigns={giving.campaigns} campaign={chosenSlug} feePercent={METHOD_RULES[m].fees ? giving.feePercent : 0} dedication={METHOD_RULES[m].dedication} knownCents={cents} values={err?.values ?? {}} inputClassName={inputCls(false)} />
  );
  if (!method) {
    return (
      <div className="mx-auto max-w-3xl px-4 py-16 sm:px-6">
        <h1 className="text-4xl font-extrabold">{t('donate.title')}</h1>
        <p className="mt-3 text-lg text-gray-700">{t('donate.intro')}</p>
        <MoneyLink label={t('money.link')} />
        <section className="mt-10 rounded-xl border border-gray-200 p-8 text-center shadow-sm" aria-labelledby="donate-soon">
          <h2 id="donate-soon" className="text-2xl font-bold">{t('donate.soon')}</h2>
          <p className="mt-3 text-gray-700">{t('donate.soonText')}</p>
          <ButtonLink to="/contact" variant="secondary" className="mt-6">
            {t('donate.contactUs')}
          </ButtonLink>
        </section>
      </div>
    );
  }
  const amountDefault = err?.values.amount ?? '20.00';
  const cfa = isCfa(mobile?.currency);
  // A payment link records no campaign (nothing comes back from it): its tab says so instead.
  const linkTab = method === 'mobileMoney' && mobile?.mode === 'link';
  const scriptMessages = JSON.stringify(
    Object.fromEntries((['donate.paymentError', 'donate.providerDown', 'donate.paypalError', 'donate.modalFailed', 'donate.invalidAmount', 'donate.missingAmount', 'donate.mobileRequired', 'donate.unavailable', 'donate.tooMany', 'donate.busy', 'taxReceipt.errorsTitle', 'giving.closed', 'giving.notStarted', 'giving.unknown', 'giving.nameRequired', 'giving.emailInvalid'] as const).map((k) => [k, t(k)])),
  );
  return (
    <div className="mx-auto max-w-3xl px-4 py-16 sm:px-6">
      <h1 className="text-4xl font-extrabold">{t('donate.title')}</h1>
      <p className="mt-3 text-lg text-gray-700">{t('donate.intro')}</p>
      <MoneyLink label={t('money.link')} />
      {giving.chosen && !err && !linkTab && <p className="mt-6 rounded-md border border-brand-100 bg-brand-50 p-3 font-medium text-brand-800" data-testid="designation">{t('giving.givingTo', { title: giving.chosen.title })}</p>}
      {giving.chosen && linkTab && <p role="status" className="mt-6 rounded-md border border-amber-300 bg-amber-50 p-3 font-medium text-amber-950">{t('giving.linkNoCampaign', { title: giving.chosen.title })}</p>}
      {giving.notice && <p role="status" className="mt-6 rounded-md border border-amber-300 bg-amber-50 p-3 font-medium text-amber-950">{t(giving.notice.key, { title: giving.notice.title })}</p>}
      <nav aria-label={t('donate.tabsLabel')} className="mt-8">
        <ul className="flex flex-wrap gap-2 border-b border-gray-300">
          {methods.map((m) => (
            <li key={m}>
              <a
                href={sitePath(`/faire-un-don?m=${m}${campaignQuery}`)}
                aria-current={m === method ? 'page' : undefined}
                className={`inline-block min-h-11 rounded-t-md px-4 py-2.5 font-semibold ${m === method ? 'border-b-4 border-brand-700 text-brand-800' : 'text-gray-800 hover:bg-gray-100'}`}
              >
                {t(choiceLabel(m, 'donateTab'))}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <section aria-labelledby="donate-method" className="mt-6 rounded-xl border border-gray-200 p-6 shadow-sm">
        <h2 id="donate-method" className="text-2xl font-bold">{t(choiceLabel(method, 'donateTab'))}</h2>
        {method === 'card' && (
          <form method="post" action={sitePath(`/faire-un-don?m=card${campaignQuery}`)} className="mt-4 space-y-5" data-card-form noValidate>
            <input type="hidden" name="intent" value="card" />
            {err && <ErrorText id={errId} error={err.error} detail={err.detail} vars={err.vars} />}
            <fieldset>
              <legend className="font-semibold">{t('donate.chooseAmount')}</legend>
              <div className="mt-2 flex flex-wrap gap-3">
                {presets.map((p) => (
                  <label key={p.id} className="inline-flex min-h-11 cursor-pointer items-center gap-2 rounded-md border border-gray-400 px-4 py-2 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50">
                    <input type="radio" name="preset" value={p.id} defaultChecked={presetChecked === p.id} className="h-4 w-4" data-cents={p.cents} />
                    <span>
                      {p.name} — {formatMoney(p.cents, 'EUR', lang)}
                    </span>
                  </label>
                ))}
              </div>
            </fieldset>
            <div>
              <label htmlFor="card-amount" className="block font-medium">{t('donate.customAmount')}</label>
              <input id="card-amount" name="amount" inputMode="decimal" autoComplete="off" maxLength={12} pattern={AMOUNT_PATTERN} defaultValue={err?.values.amount ?? ''} aria-invalid={err ? true : undefined} aria-describedby={err ? errId : undefined} className={inputCls(Boolean(err))} />
            </div>
            {METHOD_RULES.card.monthly && (
              <fieldset>
                <legend className="font-semibold">{t('donate.frequency')}</legend>
                <div className="mt-2 flex flex-wrap gap-4">
                  <label className="inline-flex min-h-11 items-center gap-2">
                    <input type="radio" name="frequency" value="once" defaultChecked={err?.values.frequency !== 'monthly'} className="h-4 w-4" /> {t('donate.oneOff')}
                  </label>
                  <label className="inline-flex min-h-11 items-center gap-2">
                    <input type="radio" name="frequency" value="monthly" defaultChecked={err?.values.frequency === 'monthly'} className="h-4 w-4" /> {t('donate.monthly')}
                  </label>
                </div>
              </fieldset>
            )}
            {givingOptions('card', giftCents(err?.values.amount ?? '', presets.find((p) => p.id === presetChecked)?.cents ?? null))}
            {taxFields}
            <NewsletterConsent checked={newsletterBack} />
            <p className="text-sm text-gray-700">{t('donate.secureNote')}</p>
            <button type="submit" className={buttonClass('primary')}>{t('donate.payCard')}</button>
          </form>
        )}
        {method === 'crypto' && (
          <form method="post" action={sitePath(`/faire-un-don?m=crypto${campaignQuery}`)} className="mt-4 space-y-5" noValidate>
            <input type="hidden" name="intent" value="crypto" />
            {err && <ErrorText id={errId} error={err.error} detail={err.detail} vars={err.vars} />}
            <div>
              <label htmlFor="crypto-amount" className="block font-medium">{t('donate.amount')}</label>
              <input id="crypto-amount" name="amount" inputMode="decimal" autoComplete="off" maxLength={12} required pattern={AMOUNT_PATTERN} defaultValue={amountDefault} aria-invalid={err && !emailErr ? true : undefined} aria-describedby={err && !emailErr ? errId : undefined} className={inputCls(Boolean(err && !emailErr))} />
            </div>
            {givingOptions('crypto', giftCents(amountDefault, null))}
            <div>
              <label htmlFor="crypto-email" className="block font-medium">{t(loaderData.receipts ? 'donate.cryptoEmailForReceipt' : 'donate.cryptoEmail')}</label>
              <input id="crypto-email" name="email" type="email" autoComplete="email" maxLength={200} defaultValue={err?.values.email ?? ''} aria-invalid={emailErr ? true : undefined} aria-describedby={emailErr ? `crypto-email-hint ${errId}` : 'crypto-email-hint'} className={inputCls(emailErr)} />
              <p id="crypto-email-hint" className="mt-1 text-sm text-gray-700">{t(loaderData.receipts ? 'donate.cryptoEmailReceiptHint' : 'donate.cryptoEmailHint')}</p>
            </div>
            {taxFields}
            <NewsletterConsent checked={newsletterBack} />
            <p className="text-sm text-gray-700">{t('donate.secureNote')}</p>
            <button type="submit" className={buttonClass('primary')}>{t('donate.payCrypto')}</button>
          </form>
        )}
        {method === 'paypal' && (
          <div className="mt-4 space-y-5" data-paypal data-sdk={loaderData.scriptUrls.paypal} data-client-id={loaderData.paypalClientId} data-messages={scriptMessages}>
            <div>
              <label htmlFor="paypal-amount" className="block font-medium">{t('donate.amount')}</label>
              <input id="paypal-amount" name="amount" inputMode="decimal" autoComplete="off" maxLength={12} required pattern={AMOUNT_PATTERN} defaultValue="20.00" className={inputCls(false)} />
            </div>
            {givingOptions('paypal', null)}
            {taxFields}
            <NewsletterConsent />
            <p data-status className="text-gray-700">{t('donate.loading')}</p>
            <noscript>
              <p className="text-gray-700">{t('donate.unavailable')}</p>
            </noscript>
            <div data-buttons />
          </div>
        )}
        {method === 'mobileMoney' && mobile?.mode === 'api' && (
          <form
            method="post"
            action={sitePath('/faire-un-don?m=mobileMoney')}
            className="mt-4 space-y-5"
            data-mobile-checkout
            data-script={loaderData.scriptUrls.mobileMoney}
            data-title={t('donate.productName')}
            data-description={t('donate.title')}
            data-logo=""
            data-messages={scriptMessages}
          >
            <div>
              <label htmlFor="mobile-amount" className="block font-medium">
                {cfa ? t('donate.amount') : t('donate.amountIn', { currency: mobile.currency })}
              </label>
              <input id="mobile-amount" name="amount" inputMode="decimal" autoComplete="off" maxLength={12} required pattern={AMOUNT_PATTERN} defaultValue="20" aria-describedby={cfa ? 'mobile-amount-note' : undefined} className={inputCls(false)} />
              {cfa && (
                <p id="mobile-amount-note" className="mt-1 text-sm text-gray-700">
                  {t('donate.convertedNote', { currency: mobile.currency })}
                </p>
              )}
            </div>
            <div>
              <label htmlFor="mobile-name" className="block font-medium">{t('donate.fullName')}</label>
              <input id="mobile-name" name="name" autoComplete="name" required maxLength={120} className={inputCls(false)} />
            </div>
            <div>
              <label htmlFor="mobile-email" className="block font-medium">{t('donate.email')}</label>
              <input id="mobile-email" name="email" type="email" autoComplete="email" required maxLength={254} className={inputCls(false)} />
            </div>
            <div>
              <label htmlFor="mobile-phone" className="block font-medium">{t('donate.phone')}</label>
              <input id="mobile-phone" name="phone" type="tel" autoComplete="tel" required maxLength={20} className={inputCls(false)} />
            </div>
            {givingOptions('mobileMoney', null)}
            {taxFields}
            <NewsletterConsent />
            <noscript>
              <p className="text-gray-700">{t('donate.unavailable')}</p>
            </noscript>
            <button type="submit" className={buttonClass('primary', 'disabled:opacity-60')}>{t('donate.payMobile')}</button>
          </form>
        )}
        {loaderData.script && <script type="module" src={loaderData.script} />}
        {loaderData.feeScript && <script type="module" src={loaderData.feeScript} />}
        {method === 'mobileMoney' && mobile?.mode === 'link' && (
          <form method="post" action={sitePath('/faire-un-don?m=mobileMoney')} className="mt-4 space-y-5">
            <input type="hidden" name="intent" value="mobileMoney" />
            {err && <ErrorText id={errId} error={err.error} detail={err.detail} vars={err.vars} />}
            <p className="text-gray-700">{t('donate.secureNote')}</p>
            <button type="submit" className={buttonClass('primary')}>{t('donate.payLink')}</button>
          </form>
        )}
      </section>
    </div>
  );
}
