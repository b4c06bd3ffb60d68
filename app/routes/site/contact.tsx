import { data, redirect } from 'react-router';
import type { Route } from './+types/contact';
import { CONTACT_LIMITS, contactErrors, contactSchema, type ContactField } from '~/domain/messages/contact-schema';
import { createMessage } from '~/domain/messages/messages.server';
import { mailContactMessage } from '~/domain/messages/notify.server';
import { CONTACT_FALLBACKS } from '~/domain/settings/site-settings';
import { sitePath, useI18n, type MessageKey } from '~/lib/i18n';
import { detectLang, messagesFor } from '~/lib/i18n.server';
import { mailConfigFor } from '~/lib/mail.server';
import { trustedOrigin } from '~/lib/origin.server';
import { pageHeaders, pageMeta } from '~/lib/page-meta';
import { hitRateLimit } from '~/lib/rate-limit.server';
import { requestInfoContext } from '~/lib/request-context.server';
import { db, runtime } from '~/lib/runtime.server';
import { buttonClass } from '~/ui/primitives/ButtonLink';
import { PreviewBanner } from '~/ui/site/PreviewBanner';
import { managedPage } from './preview.server';
import { publishedSettings } from './published.server';

export const headers = pageHeaders;

export async function loader({ request, context }: Route.LoaderArgs) {
  const [{ lang, page, preview, headers }, settings] = await Promise.all([managedPage(request, context, 'contact'), publishedSettings()]);
  const messages = messagesFor(lang);
  const sent = new URL(request.url).searchParams.get('sent') === '1';
  return data({
    preview,
    title: page.fields.title,
    address: page.fields.address || settings.address || CONTACT_FALLBACKS.address,
    email: settings.contactEmail || CONTACT_FALLBACKS.contactEmail,
    phone: settings.phone || CONTACT_FALLBACKS.phone,
    mapEmbedUrl: settings.mapEmbedUrl,
    sent,
    toast: sent ? { title: messages.contact.sent, description: messages.contact.sentText, variant: 'success' as const } : null,
  }, { headers });
}

const CONTACT_WINDOW_MS = 10 * 60 * 1000;

export async function action({ request, context }: Route.ActionArgs) {
  const { lang } = detectLang(request);
  const form = await request.formData();
  const values = {
    firstName: String(form.get('firstName') ?? ''),
    lastName: String(form.get('lastName') ?? ''),
    email: String(form.get('email') ?? ''),
    message: String(form.get('message') ?? ''),
  };
  const { clientIp } = context.get(requestInfoContext);
  const limit = await hitRateLimit(db(), `contact:${clientIp}`, runtime().env.CONTACT_RATE_LIMIT, CONTACT_WINDOW_MS);
  if (!limit.allowed) {
    return data({ values, errors: {}, formError: 'rateLimited' as const }, { status: 429, headers: { 'Retry-After': String(limit.retryAfter) } });
  }
  // A robot fills the hidden field: it is told "sent" and nothing is stored.
  if (String(form.get('website') ?? '') !== '') throw redirect(sitePath(lang, '/contact?sent=1'), 303);
  const parsed = contactSchema.safeParse(values);
  if (!parsed.success) {
    return data({ values, errors: contactErrors(parsed.error), formError: null }, { status: 400 });
  }
  const stored = await createMessage(db(), parsed.data, lang);
  // The foundation's staff follow this link: never to the Host a visitor's request named (ADR 010).
  const origin = trustedOrigin(request);
  await mailContactMessage(
    db(),
    mailConfigFor(runtime().env, origin),
    { firstName: stored.first_name, lastName: stored.last_name, email: stored.email, message: stored.message, language: stored.language },
    `${origin ?? ''}/admin/messages/${stored.id}`,
  );
  throw redirect(sitePath(lang, '/contact?sent=1'), 303);
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, (i18n) => ({ title: args.loaderData?.title || i18n.t('contact.title'), description: i18n.t('contact.metaDescription'), preview: args.loaderData?.preview }));

const FIELDS: { name: ContactField; label: MessageKey; type: string; autoComplete: string; max: number }[] = [
  { name: 'firstName', label: 'contact.firstName', type: 'text', autoComplete: 'given-name', max: CONTACT_LIMITS.name },
  { name: 'lastName', label: 'contact.lastName', type: 'text', autoComplete: 'family-name', max: CONTACT_LIMITS.name },
  { name: 'email', label: 'contact.email', type: 'email', autoComplete: 'email', max: CONTACT_LIMITS.email },
];

export default function Contact({ loaderData, actionData }: Route.ComponentProps) {
  const { t, lang } = useI18n();
  const errors: Partial<Record<ContactField, string>> = actionData?.errors ?? {};
  const values = actionData?.values;
  const errorText = (field: ContactField) =>
    errors[field] ? t(`contact.${errors[field]}` as MessageKey, { max: field === 'message' ? CONTACT_LIMITS.message : field === 'email' ? CONTACT_LIMITS.email : CONTACT_LIMITS.name }) : undefined;
  const hasErrors = Object.keys(errors).length > 0;
  const inputClass = (field: ContactField) =>
    `mt-1 block w-full rounded-md border px-3 py-2.5 text-base ${errors[field] ? 'border-red-700' : 'border-gray-400'}`;

  return (
    <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6">
      {loaderData.preview && <PreviewBanner className="mb-6" />}
      <h1 className="text-4xl font-extrabold">{loaderData.title || t('contact.title')}</h1>
      <p className="mt-3 max-w-2xl text-lg text-gray-700">{t('contact.intro')}</p>
      <div className="mt-10 grid gap-10 lg:grid-cols-[3fr_2fr]">
        <section aria-labelledby="form-title" className="rounded-xl border border-gray-200 p-6 shadow-sm">
          <h2 id="form-title" className="text-2xl font-bold">{t('contact.formTitle')}</h2>
          {loaderData.sent && !actionData && (
            <p role="status" className="mt-4 rounded-md bg-green-50 p-4 text-green-900" data-testid="contact-sent">
              <strong>{t('contact.sent')}</strong> {t('contact.sentText')}
            </p>
          )}
          {(hasErrors || actionData?.formError) && (
            <div role="alert" className="mt-4 rounded-md bg-red-50 p-4 text-red-900" data-testid="contact-error">
              <p className="font-semibold">{t('contact.errorTitle')}</p>
              <p>{actionData?.formError ? t('contact.rateLimited') : t('contact.errorText')}</p>
            </div>
          )}
          <form method="post" action={sitePath(lang, '/contact')} noValidate={false} data-busy-label={t('contact.sending')} className="mt-6 grid gap-5 sm:grid-cols-2">
            {FIELDS.map((f) => (
              <div key={f.name} className={f.name === 'email' ? 'sm:col-span-2' : ''}>
                <label htmlFor={f.name} className="block font-medium">
                  {t(f.label)} <span aria-hidden="true" className="text-red-700">*</span>
                </label>
                <input
                  id={f.name}
                  name={f.name}
                  type={f.type}
                  autoComplete={f.autoComplete}
                  required
                  maxLength={f.max}
                  defaultValue={values?.[f.name] ?? ''}
                  aria-invalid={errors[f.name] ? true : undefined}
                  aria-describedby={errors[f.name] ? `${f.name}-error` : undefined}
                  className={inputClass(f.name)}
                />
                {errors[f.name] && (
                  <p id={`${f.name}-error`} className="mt-1 text-sm text-red-800">
                    {errorText(f.name)}
                  </p>
                )}
              </div>
            ))}
            <div className="sm:col-span-2">
              <label htmlFor="message" className="block font-medium">
                {t('contact.message')} <span aria-hidden="true" className="text-red-700">*</span>
              </label>
              <textarea
                id="message"
                name="message"
                rows={6}
                required
                maxLength={CONTACT_LIMITS.message}
                defaultValue={values?.message ?? ''}
                aria-invalid={errors.message ? true : undefined}
                aria-describedby={errors.message ? 'message-error' : undefined}
                className={inputClass('message')}
              />
              {errors.message && (
                <p id="message-error" className="mt-1 text-sm text-red-800">
                  {errorText('message')}
                </p>
              )}
            </div>
            {/* Honeypot: invisible to people, tempting to robots. */}
            <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
              <label htmlFor="website">{t('contact.honeypot')}</label>
              <input id="website" name="website" type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
            </div>
            <div className="sm:col-span-2">
              <button type="submit" className={buttonClass('primary')}>
                {t('contact.send')}
              </button>
            </div>
          </form>
        </section>
        <aside aria-labelledby="coordinates" className="space-y-6">
          <section className="rounded-xl bg-brand-50 p-6">
            <h2 id="coordinates" className="text-2xl font-bold">{t('contact.coordinates')}</h2>
            <dl className="mt-4 space-y-4">
              <div>
                <dt className="font-semibold">{t('contact.address')}</dt>
                <dd>{loaderData.address}</dd>
              </div>
              <div>
                <dt className="font-semibold">{t('contact.email')}</dt>
                <dd>
                  <a href={`mailto:${loaderData.email}`} className="text-brand-800 underline">{loaderData.email}</a>
                </dd>
              </div>
              <div>
                <dt className="font-semibold">{t('contact.phone')}</dt>
                <dd>
                  <a href={`tel:${loaderData.phone.replace(/[^\d+]/g, '')}`} className="text-brand-800 underline">{loaderData.phone}</a>
                </dd>
              </div>
            </dl>
          </section>
          {loaderData.mapEmbedUrl ? (
            <iframe title={t('contact.mapTitle')} src={loaderData.mapEmbedUrl} loading="lazy" referrerPolicy="no-referrer" className="h-72 w-full rounded-xl border-0" />
          ) : (
            <div className="flex h-72 items-center justify-center rounded-xl bg-gray-100 text-gray-700">{t('contact.map')}</div>
          )}
        </aside>
      </div>
    </div>
  );
}
