import { afterAll, beforeAll, expect, it } from 'vitest';
import { extractText, getDocumentProxy } from 'unpdf';
import { useSignInLink } from '~/domain/donors/links.server';
import { applyDuesPayment, revokeDuesPayment } from '~/domain/membership/dues.server';
import { createMember } from '~/domain/membership/register.server';
import { membershipOfRenewalToken } from '~/domain/membership/reminders.server';
import { membershipsOfEmail } from '~/domain/membership/space.server';
import { createType } from '~/domain/membership/types.server';
import { runtime } from '~/lib/runtime.server';
import { loader as cardLoader } from '~/routes/donors/member-card';
import { loader as spaceLoader } from '~/routes/donors/space';
import { DONOR_COOKIE } from '~/routes/donors/session.server';
import { describeEachDialect } from '../support/db';
import { signInLinkToken } from '../support/donors';
import { memberInput, membershipType } from '../support/membership';
import { startTestRuntime } from '../support/runtime';

const APP_SECRET = 'member-space-'.padEnd(48, 'm');
const ORIGIN = 'https://fondation.example.org';
const ADMIN = { id: 'u1', name: 'Alice Admin' };

/**
 * The member in the donor space (ADR 021): a member who never gave signs in with the space's
 * link, sees each membership with its state, end, dues and renewal link, and downloads their own
 * card only. The routes are called as React Router calls them, on a running app.
 */
describeEachDialect('a member in the donor space on %s', (dialect) => {
  let app: { stop: () => Promise<void> } | undefined;
  const db = () => runtime().db;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    app = await startTestRuntime(dialect, APP_SECRET);
    const type = await createType(db(), ADMIN, membershipType({ name_fr: 'Membre actif', name_en: 'Active member', period_model: 'anniversary' }));
    ids.awa = (await createMember(db(), null, memberInput(type, { email: 'Awa@Example.org' }))).id;
    await applyDuesPayment(db(), { membershipId: ids.awa, paymentId: 'pay-1', amountCents: 3000, paidAt: '2025-03-10T10:00:00.000Z', method: 'card' });
    await applyDuesPayment(db(), { membershipId: ids.awa, paymentId: 'pay-2', amountCents: 3000, paidAt: '2026-03-01T10:00:00.000Z', method: 'cheque' });
    await applyDuesPayment(db(), { membershipId: ids.awa, paymentId: 'pay-3', amountCents: 3000, paidAt: '2026-04-01T10:00:00.000Z', method: 'card' });
    await revokeDuesPayment(db(), { paymentId: 'pay-3', at: '2026-04-02T10:00:00.000Z', reason: 'refunded' });
    ids.other = (await createMember(db(), null, memberInput(type, { first_name: 'Omar', email: 'omar@example.org' }))).id;
    ids.honorary = (await createMember(db(), null, memberInput(type, { first_name: 'Henri', email: 'henri@example.org', exempt: true }))).id;
  });
  afterAll(async () => {
    await app?.stop();
  });

  async function signIn(email: string) {
    const session = await useSignInLink(db(), await signInLinkToken(db(), email, `10.8.${email.length}.1`));
    return `${DONOR_COOKIE}=${session!.token}`;
  }

  async function call(loader: (args: never) => Promise<unknown>, path: string, params: Record<string, string>, cookie?: string): Promise<Response | unknown> {
    // An English visitor: the page at its English address, a file with `?lng=en` (as the page links it).
    const request = new Request(`${ORIGIN}${path.startsWith('/mon-espace/') ? `${path}?lng=en` : `/en${path}`}`, { headers: cookie ? { Cookie: cookie } : {} });
    try {
      return await loader({ request, params, context: undefined } as never);
    } catch (e) {
      if (e instanceof Response) return e;
      throw e;
    }
  }

  it('sends the sign-in link to a member who never gave, and to nobody unknown', async () => {
    await expect(signInLinkToken(db(), 'awa@example.org')).resolves.toMatch(/.+/);
    await expect(signInLinkToken(db(), 'stranger@example.org')).rejects.toThrow(/no sign-in link/);
  });

  it('lists the member’s memberships with state, end and dues, newest dues first', async () => {
    const [m] = await membershipsOfEmail(db(), 'awa@example.org', '2027-02-10');
    expect(m).toMatchObject({ id: ids.awa, number: 1, typeNames: { fr: 'Membre actif', en: 'Active member' }, state: 'due_soon', endsOn: '2027-03-09', exempt: false });
    expect(m.dues.map((d) => [d.method, d.status, d.period])).toEqual([
      ['card', 'refunded', null],
      ['cheque', 'paid', { start: '2026-03-10', end: '2027-03-09' }],
      ['card', 'paid', { start: '2025-03-10', end: '2026-03-09' }],
    ]);
    expect((await membershipsOfEmail(db(), 'awa@example.org', '2027-05-01'))[0].state).toBe('lapsed');
    expect((await membershipsOfEmail(db(), 'henri@example.org', '2027-05-01'))[0]).toMatchObject({ state: 'honorary', exempt: true, dues: [] });
    expect(await membershipsOfEmail(db(), 'stranger@example.org', '2027-05-01')).toEqual([]);
  });

  it('the space’s page gives each membership its card address and a signed renewal link in the page’s language; none for an honorary member', async () => {
    const page = (await call(spaceLoader as never, '/mon-espace', {}, await signIn('awa@example.org'))) as { data: { memberships: { id: string; cardUrl: string; renewUrl: string | null }[] } };
    const [m] = page.data.memberships;
    expect(m.cardUrl).toBe(`/mon-espace/carte/${ids.awa}?lng=en`);
    const renew = /^\/en\/devenir-membre\?renouveler=([^&]+)$/.exec(m.renewUrl ?? '');
    expect(renew).not.toBeNull();
    expect(membershipOfRenewalToken(APP_SECRET, decodeURIComponent(renew![1]))).toBe(ids.awa);
    const honorary = (await call(spaceLoader as never, '/mon-espace', {}, await signIn('henri@example.org'))) as { data: { memberships: { renewUrl: string | null }[] } };
    expect(honorary.data.memberships.map((x) => x.renewUrl)).toEqual([null]);
  });

  it('serves the member’s own card as a PDF in the page’s language, a 404 for another’s, and the sign-in form without a session', async () => {
    const cookie = await signIn('awa@example.org');
    const res = (await call(cardLoader as never, `/mon-espace/carte/${ids.awa}`, { membershipId: ids.awa }, cookie)) as Response;
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('application/pdf');
    expect(res.headers.get('Cache-Control')).toBe('private, no-store');
    expect(res.headers.get('Content-Disposition')).toBe('attachment; filename="membership-card-1.pdf"');
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(await res.arrayBuffer())), { mergePages: true });
    expect(text.replace(/\s+/g, ' ')).toContain('Member no. 1');

    const other = (await call(cardLoader as never, `/mon-espace/carte/${ids.other}`, { membershipId: ids.other }, cookie)) as Response;
    expect(other.status).toBe(404);
    const unknown = (await call(cardLoader as never, '/mon-espace/carte/nope', { membershipId: 'nope' }, cookie)) as Response;
    expect(unknown.status).toBe(404);
    const anonymous = (await call(cardLoader as never, `/mon-espace/carte/${ids.awa}`, { membershipId: ids.awa })) as Response;
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get('Location')).toBe('/en/mon-espace');
  });
});
