import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { RouterContextProvider } from 'react-router';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { getPaymentSettings } from '~/domain/donations/providers/settings.server';
import { createType } from '~/domain/membership/types.server';
import { I18nContext, makeI18n, type Lang } from '~/lib/i18n';
import { messagesFor } from '~/lib/i18n.server';
import { requestInfoContext } from '~/lib/request-context.server';
import { runtime } from '~/lib/runtime.server';
import Member, { action as memberAction, loader as memberLoader } from '~/routes/site/member';
import { loader as thanksLoader } from '~/routes/site/member-thanks';
import { loader as cancelLoader } from '~/routes/site/member-cancel';
import { startFakeStripe, type FakeStripe } from '../fakes/stripe';
import { describeEachDialect } from '../support/db';
import { enableStripeCard } from '../support/donations';
import { membershipType } from '../support/membership';
import { startTestRuntime } from '../support/runtime';
import { sitePath } from '~/lib/lang-path';

const APP_SECRET = 'membership-join-routes-'.padEnd(48, 'j');
const WHSEC = 'whsec_join_routes';
const ORIGIN = 'https://dons.example.org';
const ADMIN = { id: 'u-admin', name: 'Alice Admin' };

type JoinError = { intent: string; errors: Record<string, string>; values: Record<string, string>; formError: string | null };

/** /devenir-membre as React Router calls it: the form read and validated on the server, errors in the visitor's language, the rate limit, the return pages. */
describeEachDialect('joining online through the routes on %s', (dialect) => {
  let app: { stop: () => Promise<void> } | undefined;
  let stripe: FakeStripe;
  let active: string;
  let honorary: string;
  let ip = 0;
  const db = () => runtime().db;

  beforeAll(async () => {
    stripe = await startFakeStripe({ port: 0, webhookSecret: WHSEC, webhookUrl: () => 'http://127.0.0.1:1/unused' });
    app = await startTestRuntime(dialect, APP_SECRET, { PUBLIC_URL: ORIGIN, STRIPE_API_BASE: stripe.url });
    await enableStripeCard(db(), APP_SECRET, { secretKey: 'sk_test_join', webhookSecret: WHSEC });
    active = await createType(db(), ADMIN, membershipType());
    honorary = await createType(db(), ADMIN, membershipType({ name_fr: 'Membre d’honneur', name_en: 'Honorary member', dues: '0' }));
  });
  afterAll(async () => {
    await app?.stop();
    await stripe?.close();
  });

  function context(fixedIp?: string) {
    const c = new RouterContextProvider();
    ip += 1;
    c.set(requestInfoContext, { nonce: 'n', clientIp: fixedIp ?? `10.30.0.${ip}`, requestId: 'r', secure: true });
    return c;
  }
  async function page(path: string, lang: Lang = 'fr', actionData?: unknown) {
    const request = new Request(`${ORIGIN}${path}`, { headers: { 'Accept-Language': lang } });
    const { data } = (await memberLoader({ request, context: context(), params: {} } as never)) as unknown as { data: Record<string, unknown> };
    const html = renderToStaticMarkup(createElement(I18nContext.Provider, { value: makeI18n(lang, messagesFor(lang)) }, createElement(Member as never, { loaderData: data, actionData } as never)));
    return { data, html };
  }
  async function post(form: Record<string, string>, lang: Lang = 'fr', fixedIp?: string): Promise<{ status: number; location?: string; error?: JoinError }> {
    // The form posts to the page's own address, which names its language.
    const request = new Request(`${ORIGIN}${sitePath(lang, '/devenir-membre')}`, { method: 'POST', headers: { Origin: ORIGIN }, body: new URLSearchParams(form) });
    const out = await memberAction({ request, context: context(fixedIp), params: {} } as never);
    if (out instanceof Response) return { status: out.status, location: out.headers.get('Location') ?? undefined };
    const d = out as unknown as { data: JoinError; init?: ResponseInit };
    return { status: d.init?.status ?? 200, error: d.data };
  }
  const complete = (over: Record<string, string> = {}) => ({
    intent: 'join',
    first_name: 'Awa',
    last_name: 'Diop',
    email: 'awa.route@example.org',
    phone: '',
    address: '12 rue des Lilas',
    postal_code: '75011',
    city: 'Paris',
    country: 'France',
    type_id: active,
    method: 'card',
    statutes: 'on',
    privacy: 'on',
    ...over,
  });
  const members = async () => (await db().selectFrom('memberships').select('id').execute()).length;

  it('offers only the types with dues, the methods configured and "je paie autrement", and keeps the PDF button', async () => {
    const { data, html } = await page('/devenir-membre');
    expect((data.types as { id: string }[]).map((t) => t.id)).toEqual([active]);
    expect(data.methods).toEqual(['card', 'other']);
    // The form may lead to Stripe's hosted checkout (here the fake's origin) and nowhere else.
    const { init } = (await memberLoader({ request: new Request(`${ORIGIN}/devenir-membre`), context: context(), params: {} } as never)) as unknown as { init: ResponseInit };
    expect(new Headers(init.headers).get('Content-Security-Policy')).toContain(`form-action 'self' https://checkout.stripe.com ${stripe.url}`);
    expect(html).toContain('Membre actif');
    expect(html).not.toContain('Membre d’honneur');
    expect(html).toContain('action="/devenir-membre" method="post"');
    expect(html).toContain('<label for="join-email" class="block font-medium">Adresse email</label>');
    expect(html).toContain('Télécharger le formulaire d’adhésion');
  });

  it('validates on the server, in the visitor’s language, gives back what was typed and records nothing', async () => {
    const before = await members();
    const r = await post(complete({ email: 'not-an-address', statutes: '', first_name: '' }), 'en');
    expect(r.status).toBe(400);
    expect(r.error?.errors).toEqual({ first_name: 'join.required', email: 'join.invalidEmail', statutes: 'join.statutesRequired' });
    expect(r.error?.values.email).toBe('not-an-address');
    const shown = await page('/devenir-membre', 'en', r.error);
    expect(shown.html).toContain('Please enter a valid email address.');
    expect(shown.html).toContain('You must agree to the statutes to become a member.');
    expect(shown.html).toContain('aria-describedby="join-email-error"');
    expect(shown.html).toContain('value="not-an-address"');
    const es = await post(complete({ privacy: '' }), 'es');
    expect(messagesFor('es').join.privacyRequired).toBe('Debe aceptar el tratamiento de sus datos para ser miembro.');
    expect(es.error?.errors).toEqual({ privacy: 'join.privacyRequired' });
    // A free type or a method not configured, whatever the form says.
    expect((await post(complete({ type_id: honorary }))).error?.errors).toEqual({ type_id: 'join.chooseType' });
    expect((await post(complete({ method: 'crypto' }))).error?.errors).toEqual({ method: 'join.chooseMethod' });
    expect(await members()).toBe(before);
  });

  it('pays by card: redirects to Stripe, and the return page says the membership is active only once Stripe says it was paid', async () => {
    const r = await post(complete());
    expect(r.status).toBe(303);
    expect(r.location).toMatch(`${stripe.url}/pay/`);
    const session = r.location!.split('/pay/')[1];
    const before = (await thanksLoader({ request: new Request(`${ORIGIN}/devenir-membre/merci?session_id=${session}`), context: context(), params: {} } as never)) as { state: string };
    expect(before.state).toBe('pending');
    stripe.complete(session);
    const after = (await thanksLoader({ request: new Request(`${ORIGIN}/devenir-membre/merci?session_id=${session}`), context: context(), params: {} } as never)) as { state: string; number: number };
    expect(after.state).toBe('active');
    const [mail] = await db().selectFrom('mail_outbox').select('subject').where('to', '=', 'awa.route@example.org').execute();
    expect(mail.subject).toBe('Votre adhésion à la Fondation THV est active');
  });

  it('"je paie autrement" leads to a page saying the membership waits for the team; a cancelled payment says it is not active', async () => {
    const r = await post(complete({ method: 'other', email: 'cheque.route@example.org', news: 'on' }), 'en');
    expect(r).toEqual({ status: 303, location: '/en/devenir-membre/merci?attente=1' });
    // The optional news box, ticked, is the member's dated consent to the letters (ADR 022).
    expect((await db().selectFrom('memberships').select('news_consent_at').where('email', '=', 'cheque.route@example.org').executeTakeFirstOrThrow()).news_consent_at).not.toBeNull();
    expect(await thanksLoader({ request: new Request(`${ORIGIN}${r.location}`), context: context(), params: {} } as never)).toEqual({ state: 'other' });
    const paid = await post(complete({ email: 'cancel.route@example.org' }));
    const session = paid.location!.split('/pay/')[1];
    const payment = await db().selectFrom('donations').select(['id']).where('provider_ref', '=', session).executeTakeFirstOrThrow();
    expect(await cancelLoader({ request: new Request(`${ORIGIN}/devenir-membre/annule?d=${payment.id}`), context: context(), params: {} } as never)).toEqual({ state: 'cancelled' });
    expect((await db().selectFrom('donations').select('status').where('id', '=', payment.id).executeTakeFirstOrThrow()).status).toBe('cancelled');
  });

  it('is rate limited like the donate form: the 21st submission from one address in ten minutes is refused', async () => {
    for (let i = 0; i < 20; i++) expect((await post(complete({ email: '' }), 'fr', '10.99.0.1')).status).toBe(400);
    const r = await post(complete({ email: '' }), 'fr', '10.99.0.1');
    expect(r.status).toBe(429);
    expect(r.error?.formError).toBe('join.tooMany');
  });

  it('a forged renewal link shows a notice and renews nothing', async () => {
    const { data, html } = await page('/devenir-membre?renouveler=abc.123.def');
    expect(data.renewal).toBe('invalid');
    expect(html).toContain('Ce lien de renouvellement n’est plus valable.');
    const r = await post({ intent: 'renew', token: 'abc.123.def', method: 'card' });
    expect(r.status).toBe(400);
    expect(r.error?.formError).toBe('join.renewInvalid');
    expect((await getPaymentSettings(db(), APP_SECRET)).stripe.enabled).toBe(true);
  });
});
