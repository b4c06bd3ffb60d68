/** What the membership screens share: today's Paris day, the settings, the types' names, the filters read from the address. */
import { today } from '~/domain/content/forms';
import type { MemberWithState, RegisterFilters } from '~/domain/membership/register.server';
import { getMembershipSettings } from '~/domain/membership/settings.server';
import { MEMBERSHIP_STATES, STATE_LABELS, type MembershipState } from '~/domain/membership/status';
import { listTypes } from '~/domain/membership/types.server';
import type { SessionUser } from '~/domain/users/sessions.server';
import { runtime } from '~/lib/runtime.server';
import { dayFr } from './format';

export { dayFr };

export function notFound(): never {
  throw new Response('Introuvable', { status: 404 });
}

/** What every membership screen reads: the database, today (Paris), the grace days, the types by id. */
export async function membershipContext() {
  const db = runtime().db;
  const settings = await getMembershipSettings(db);
  const types = await listTypes(db);
  return { db, day: today(), settings, types, typeName: (id: string) => types.find((t) => t.id === id)?.translations.fr.name ?? '—' };
}


export function filtersOf(url: URL): RegisterFilters & { raw: Record<string, string> } {
  const get = (k: string) => url.searchParams.get(k)?.trim() ?? '';
  const state = get('etat');
  const year = Number(get('annee'));
  return {
    q: get('q').slice(0, 100) || undefined,
    state: (MEMBERSHIP_STATES as readonly string[]).includes(state) ? (state as MembershipState) : undefined,
    typeId: get('type') || undefined,
    year: Number.isInteger(year) && year >= 2000 && year <= 2100 ? year : undefined,
    expiringSoon: get('expire') === '1',
    raw: { q: get('q'), etat: state, type: get('type'), annee: get('annee'), expire: get('expire') },
  };
}

/**
 * A member as a screen shows it: an Éditeur reads the register without addresses (postal, e-mail,
 * phone), which are then not sent to the page at all.
 */
export function memberView(m: MemberWithState, user: SessionUser, typeName: (id: string) => string, { contact = user.role === 'Admin' } = {}) {
  return {
    id: m.id,
    number: m.number,
    name: `${m.firstName} ${m.lastName}`,
    type: typeName(m.typeId),
    state: m.state,
    stateLabel: STATE_LABELS[m.state],
    endsOn: dayFr(m.endsOn),
    language: m.language,
    override: m.override ? { label: STATE_LABELS[m.override], reason: m.overrideReason, by: m.overrideBy ?? '', at: m.overrideAt ?? '' } : null,
    contact: contact ? { email: m.email, phone: m.phone, address: [m.address, `${m.postalCode} ${m.city}`.trim(), m.country].filter(Boolean).join(', ') } : null,
  };
}
