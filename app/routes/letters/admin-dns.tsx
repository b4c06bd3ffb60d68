import { Form } from 'react-router';
import type { Route } from './+types/admin-dns';
import { domainOf, isDomain, isSelector, type CheckStatus } from '~/domain/letters/dns';
import { checkSendingDomain } from '~/domain/letters/dns.server';
import { recordDnsCheck } from '~/domain/letters/dns-passed.server';
import { footerOf } from '~/domain/letters/letters.server';
import { mailConfigFor } from '~/lib/mail.server';
import { db, runtime } from '~/lib/runtime.server';
import { requireUser } from '~/routes/admin/auth.server';
import { Field, Notice, primaryButton } from '~/ui/admin/Field';

/**
 * /admin/lettres/dns (Admin): whether the sending domain publishes SPF, DKIM (for the selector the
 * provider gave) and DMARC, said in plain French (ADR 022). A GET form: it changes nothing.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'letters', role: 'Admin' });
  const url = new URL(request.url);
  // The sender an Admin set, else MAIL_FROM: the domain letters really come from.
  const from = (await footerOf(db())).from ?? mailConfigFor(runtime().env, runtime().publicUrl).from;
  const domain = (url.searchParams.get('domaine') ?? domainOf(from) ?? '').trim().toLowerCase();
  const selector = (url.searchParams.get('selecteur') ?? '').trim();
  const asked = url.searchParams.has('selecteur');
  if (!asked) return { from, domain, selector, errors: {}, report: null };
  const errors: Record<string, string> = {};
  if (!isDomain(domain)) errors.domaine = 'Un nom de domaine, par exemple fondation-thv.org.';
  if (!isSelector(selector)) errors.selecteur = 'Le sélecteur DKIM donné par votre fournisseur, par exemple « s1 ».';
  if (Object.keys(errors).length) return { from, domain, selector, errors, report: null };
  const report = await checkSendingDomain(domain, selector);
  // A domain that passes is remembered for the dashboard's setup checklist (ADR 037).
  if (report.ok) await recordDnsCheck(db(), domain, selector, report.checks);
  return { from, domain, selector, errors, report };
}

export const meta: Route.MetaFunction = () => [{ title: 'Vérifier le domaine d’envoi | Administration' }, { name: 'robots', content: 'noindex' }];

const STATUS: Record<CheckStatus, { label: string; className: string }> = {
  ok: { label: 'Correct', className: 'bg-green-100 text-green-900' },
  warning: { label: 'À corriger', className: 'bg-amber-100 text-amber-900' },
  missing: { label: 'Absent', className: 'bg-red-100 text-red-900' },
};

export default function DnsScreen({ loaderData }: Route.ComponentProps) {
  const { from, domain, selector, errors, report } = loaderData;
  return (
    <div className="max-w-3xl space-y-6">
      <h1 className="text-3xl font-bold text-gray-900">Vérifier le domaine d’envoi</h1>
      <p className="break-words text-gray-700">Les lettres partent de <strong>{from}</strong> (<a className="underline" href="/admin/lettres/expediteur">expéditeur</a>). Gmail et Yahoo n’acceptent les envois en nombre que si ce domaine publie SPF, DKIM et DMARC.</p>
      <Form method="get" className="grid gap-4 sm:grid-cols-[2fr_1fr_auto] sm:items-end">
        <Field name="domaine" label="Domaine" defaultValue={domain} required error={errors.domaine} />
        <Field name="selecteur" label="Sélecteur DKIM" defaultValue={selector} required error={errors.selecteur} />
        <button type="submit" className={primaryButton}>Vérifier</button>
      </Form>
      {report && !report.ok && <Notice tone="error" title="Vérification impossible">{report.error}</Notice>}
      {report?.ok && (
        <ul className="space-y-4" data-testid="dns-checks">
          {report.checks.map((c) => (
            <li key={c.name} className="rounded-lg border border-gray-200 bg-white p-4">
              <h2 className="flex flex-wrap items-center gap-3 text-lg font-semibold text-gray-900">
                {c.name}
                <span className={`rounded-full px-2.5 py-1 text-xs font-semibold ${STATUS[c.status].className}`}>{STATUS[c.status].label}</span>
              </h2>
              <p className="mt-1 break-all text-sm text-gray-700">{c.host}</p>
              <p className="mt-2 text-gray-900">{c.message}</p>
              {c.record && <p className="mt-2 break-all font-mono text-sm text-gray-800">{c.record}</p>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
