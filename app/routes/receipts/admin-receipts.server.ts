import { data } from 'react-router';
import { parisYear } from '~/lib/paris';
import type { AnnualDeps } from '~/domain/receipts/jobs.server';
import { trustedOrigin } from '~/lib/origin.server';
import { runtime } from '~/lib/runtime.server';
import { dateTimeFormat } from '~/lib/intl';

/** What the receipts' mails need, from the running server. */
export function receiptDeps(request: Request): AnnualDeps {
  const rt = runtime();
  return { db: rt.db, env: rt.env, publicUrl: trustedOrigin(request), storage: rt.storage };
}

/** The year asked for in `?year=`, this year otherwise. */
export function yearOf(request: Request): number {
  const asked = Number(new URL(request.url).searchParams.get('year'));
  return Number.isInteger(asked) && asked >= 2000 && asked <= 2100 ? asked : parisYear(new Date());
}

export function notFound(): never {
  throw data('Reçu introuvable', { status: 404 });
}

export const dateFr = (iso: string) => dateTimeFormat('fr-FR', { dateStyle: 'short', timeZone: 'Europe/Paris' }).format(new Date(iso));

export function donorLabel(json: string): string {
  const d = JSON.parse(json) as { kind: string; name: string; company: string };
  return d.kind === 'company' ? `${d.company} (${d.name})` : d.name;
}
