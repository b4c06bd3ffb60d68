/** What the donors register's screens share: the signed-in user, the list's query from the address, a record as a role may read it. */
import { formatMoney } from '~/lib/currency';
import { dayFr } from '~/lib/paris';
import { runtime } from '~/lib/runtime.server';
import type { DonorFigures } from '~/domain/people/figures';
import { SORTS, type ListQuery, type PersonRecord, type Sort } from '~/domain/people/register.server';
import type { SessionUser } from '~/domain/users/sessions.server';
import { requireUser } from '~/routes/admin/auth.server';

export const db = () => runtime().db;

export function notFound(): never {
  throw new Response('Introuvable', { status: 404 });
}

export async function peopleUser(request: Request, context: unknown, { admin = false } = {}) {
  const user = await requireUser(request, context as never, { area: 'people', ...(admin ? { role: 'Admin' as const } : {}) });
  return { user, admin: user.role === 'Admin' };
}

export async function formOf(request: Request): Promise<Record<string, string>> {
  return Object.fromEntries([...(await request.formData()).entries()].map(([k, v]) => [k, typeof v === 'string' ? v : '']));
}

export function listQueryOf(url: URL): ListQuery & { raw: Record<string, string> } {
  const get = (k: string) => url.searchParams.get(k)?.trim() ?? '';
  const sort = (SORTS as readonly string[]).includes(get('tri')) ? (get('tri') as Sort) : 'name';
  const page = Number(get('page'));
  return {
    q: get('q').slice(0, 100) || undefined,
    sort,
    desc: get('ordre') === 'desc',
    page: Number.isInteger(page) && page > 0 && page < 100_000 ? page : 1,
    // A segment (ADR 040) is judged over every record, as its count on the segments' screen.
    donorsOnly: get('fiches') !== 'toutes' && !get('segment'),
    monthlyOnly: get('mensuel') === '1',
    tagId: get('etiquette') || undefined,
    raw: { q: get('q'), fiches: get('fiches'), mensuel: get('mensuel'), etiquette: get('etiquette'), segment: get('segment'), tri: sort, ordre: get('ordre') },
  };
}

const euros = (cents: number) => formatMoney(cents, 'EUR');
const day = (iso: string | null) => (iso ? dayFr(iso.slice(0, 10)) : '—');

/** The figures as the screens print them. */
export function figuresView(f: DonorFigures) {
  return {
    gifts: f.gifts,
    total: euros(f.totalCents),
    largest: f.gifts ? euros(f.largestCents) : '—',
    thisYear: euros(f.thisYearCents),
    lastYear: euros(f.lastYearCents),
    first: day(f.firstGiftAt),
    last: day(f.lastGiftAt),
    monthly: f.monthly,
  };
}

/** A record's name for a role: one known by its address only is "Sans nom" to an Éditeur. */
export const nameFor = (name: string, admin: boolean) => (!admin && name.includes('@') ? 'Sans nom' : name);

/**
 * A record as a role reads it: an Éditeur reads the register without addresses (e-mail, postal
 * code, phone), which are then not sent to the page at all; a record known by its address only is
 * named "Sans nom" for them.
 */
export function personView(p: PersonRecord, user: SessionUser) {
  const admin = user.role === 'Admin';
  return {
    id: p.id,
    name: nameFor(p.name, admin),
    mergedInto: p.mergedInto,
    figures: figuresView(p),
    emails: admin ? p.emails : [],
  };
}

export { day, euros };
