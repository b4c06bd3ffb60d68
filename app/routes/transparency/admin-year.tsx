import { Form, Link, data } from 'react-router';
import type { Route } from './+types/admin-year';
import { centsForForm, FIRST_YEAR, formRecord, MAX_MISSION_ROWS, MAX_OTHER_ROWS, SPARE_ROWS, yearFiguresSchema, COMMENT_MAX } from '~/domain/transparency/figures';
import { currentYear, getYear, isClosed, liveTotals, projectChoices, saveYear } from '~/domain/transparency/years.server';
import { MONEY_TAG } from '~/lib/cache-tags';
import { formatMoney } from '~/lib/currency';
import { fixFieldsToast, formError, issueErrors } from '~/lib/form-errors.server';
import { contentChanged, runtime } from '~/lib/runtime.server';
import { actorOf, requireUser } from '~/routes/admin/auth.server';
import { Field, inputClass, Notice, primaryButton, SelectField } from '~/ui/admin/Field';
import { useToast } from '~/ui/admin/hooks';

/** The year in the address, from FIRST_YEAR to this year; anything else answers 404. */
function yearOf(param: string): number {
  const year = /^\d{4}$/.test(param) ? Number(param) : NaN;
  if (!(year >= FIRST_YEAR && year <= currentYear())) throw new Response('Introuvable', { status: 404 });
  return year;
}

/** A year's figures typed from the approved accounts (ADR 032), with the ledger's totals of that year beside gifts and dues. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'transparency' });
  const year = yearOf(params.year);
  const db = runtime().db;
  const [stored, projects, live] = await Promise.all([getYear(db, year), projectChoices(db), liveTotals(db, year)]);
  const f = stored.figures;
  const values: Record<string, string> = {
    gifts: stored.version === 0 ? '' : centsForForm(f.giftsCents),
    dues: stored.version === 0 ? '' : centsForForm(f.duesCents),
    fundraising: stored.version === 0 ? '' : centsForForm(f.fundraisingCents),
    running: stored.version === 0 ? '' : centsForForm(f.runningCents),
    commentFr: f.comment.fr,
    commentEn: f.comment.en,
    commentEs: f.comment.es,
    published: stored.published ? 'on' : '',
  };
  f.otherResources.forEach((r, i) => Object.assign(values, { [`otherResources.${i}.label`]: r.label, [`otherResources.${i}.amount`]: centsForForm(r.cents) }));
  f.missions.forEach((m, i) => Object.assign(values, { [`missions.${i}.project`]: m.projectId ?? '', [`missions.${i}.label`]: m.projectId ? '' : m.label, [`missions.${i}.amount`]: centsForForm(m.cents) }));
  return {
    year,
    closed: isClosed(year),
    version: stored.version,
    values,
    rows: { other: f.otherResources.length, missions: f.missions.length },
    projects: [...projects.entries()].map(([id, title]) => ({ id, title })),
    live: { gifts: formatMoney(live.giftsCents, 'EUR'), dues: formatMoney(live.duesCents, 'EUR') },
  };
}

const CONFLICT = 'Cette année a été modifiée entre-temps par quelqu’un d’autre. Rechargez la page pour voir la dernière version.';

export async function action({ request, context, params }: Route.ActionArgs) {
  const me = await requireUser(request, context, { area: 'transparency' });
  const year = yearOf(params.year);
  const form = await request.formData();
  const raw = Object.fromEntries([...form.entries()].map(([k, v]) => [k, typeof v === 'string' ? v : '']));
  const version = Number(raw.version);
  if (!Number.isInteger(version) || version < 0) return data({ errors: { form: CONFLICT } as Record<string, string>, values: raw, toast: null }, { status: 409 });
  const db = runtime().db;
  const parsed = yearFiguresSchema(await projectChoices(db)).safeParse(formRecord(Object.entries(raw)));
  if (!parsed.success) return formError({ errors: issueErrors(parsed.error.issues), values: raw, toast: fixFieldsToast(`Année ${year} non enregistrée`) });
  if ((await saveYear(db, actorOf(me), year, parsed.data, version)) !== 'ok') return data({ errors: { form: CONFLICT } as Record<string, string>, values: raw, toast: null }, { status: 409 });
  // The public page (every language, every year's address) shows it at once; a CDN's copies are purged (ADR 025).
  await contentChanged([MONEY_TAG]);
  const title = parsed.data.published ? `Année ${year} enregistrée et publiée !` : `Année ${year} enregistrée (non publiée).`;
  return { errors: {} as Record<string, string>, values: null, toast: { title, variant: 'success' as const } };
}

export const meta: Route.MetaFunction = ({ params }) => [{ title: `Où va l’argent ${params.year} | Administration` }, { name: 'robots', content: 'noindex' }];

/** How many rows a list shows: those filled in (saved or sent back), plus blank ones, up to its limit. */
function rowCount(values: Record<string, string>, list: string, saved: number, max: number): number {
  const sent = Object.keys(values).reduce((n, k) => (k.startsWith(`${list}.`) ? Math.max(n, Number(k.split('.')[1]) + 1) : n), 0);
  return Math.min(max, Math.max(saved, sent) + SPARE_ROWS);
}

export default function TransparencyYear({ loaderData, actionData }: Route.ComponentProps) {
  const { year, closed, version, projects, live, rows } = loaderData;
  const errors = actionData?.errors ?? {};
  const v: Record<string, string> = actionData?.values ?? loaderData.values;
  useToast(actionData?.toast);
  const savedVersion = actionData?.toast ? version : Number(v.version ?? version);
  const amount = (name: string, label: string, hint?: string) => <Field name={name} label={label} inputMode="decimal" defaultValue={v[name] ?? ''} error={errors[name]} hint={hint} maxLength={30} />;
  const ledger = (what: string, total: string) => `Registre des dons pour ${year} : ${total}${closed ? '' : ' (en cours)'} — ${what}, remboursements déduits.`;
  return (
    <div className="max-w-4xl space-y-6">
      <p>
        <Link to="/admin/transparence" className="underline">← Toutes les années</Link>
      </p>
      <h1 className="text-3xl font-bold text-gray-900">Où va l’argent : {year}</h1>
      {errors.form && <Notice tone="error">{errors.form}</Notice>}
      {actionData?.toast && <Notice tone={actionData.toast.variant === 'destructive' ? 'error' : 'success'} title={actionData.toast.title} />}
      <p className="text-gray-700">Montants en euros, tels qu’ils figurent dans les comptes approuvés de {year} (ex. 1 250 000 ou 1250000,50). Les lignes laissées vides sont ignorées.</p>
      <Form method="post" className="space-y-8" noValidate key={savedVersion}>
        <input type="hidden" name="version" value={version} />
        <fieldset className="space-y-4 rounded-lg border border-gray-200 bg-white p-6">
          <legend className="px-1 text-xl font-bold text-gray-900">Ressources</legend>
          {amount('gifts', 'Dons du public', ledger('dons', live.gifts))}
          {amount('dues', 'Cotisations', ledger('cotisations', live.dues))}
          <p className="font-semibold text-gray-900">Autres ressources (subventions, legs, autres)</p>
          {Array.from({ length: rowCount(v, 'otherResources', rows.other, MAX_OTHER_ROWS) }, (_, i) => (
            <div key={i} className="grid gap-3 sm:grid-cols-[2fr_1fr]">
              <Field name={`otherResources.${i}.label`} label={`Ressource ${i + 1} : libellé`} defaultValue={v[`otherResources.${i}.label`] ?? ''} error={errors[`otherResources.${i}.label`]} maxLength={120} />
              {amount(`otherResources.${i}.amount`, `Ressource ${i + 1} : montant`)}
            </div>
          ))}
        </fieldset>
        <fieldset className="space-y-4 rounded-lg border border-gray-200 bg-white p-6">
          <legend className="px-1 text-xl font-bold text-gray-900">Emplois</legend>
          <p className="font-semibold text-gray-900">Missions sociales, par projet</p>
          <p className="text-sm text-gray-700">Choisissez un projet du site (son titre paraît dans chaque langue) ou écrivez un libellé.</p>
          {Array.from({ length: rowCount(v, 'missions', rows.missions, MAX_MISSION_ROWS) }, (_, i) => (
            <div key={i} className="grid gap-3 sm:grid-cols-3">
              <SelectField name={`missions.${i}.project`} label={`Mission ${i + 1} : projet`} options={projects.map((p) => p.id)} labels={Object.fromEntries(projects.map((p) => [p.id, p.title]))} empty="Aucun (libellé)" defaultValue={v[`missions.${i}.project`] ?? ''} error={errors[`missions.${i}.project`]} />
              <Field name={`missions.${i}.label`} label={`Mission ${i + 1} : libellé`} defaultValue={v[`missions.${i}.label`] ?? ''} error={errors[`missions.${i}.label`]} maxLength={120} />
              {amount(`missions.${i}.amount`, `Mission ${i + 1} : montant`)}
            </div>
          ))}
          {amount('fundraising', 'Frais de collecte')}
          {amount('running', 'Frais de fonctionnement')}
        </fieldset>
        <fieldset className="space-y-4 rounded-lg border border-gray-200 bg-white p-6">
          <legend className="px-1 text-xl font-bold text-gray-900">Commentaire (facultatif)</legend>
          {(['Fr', 'En', 'Es'] as const).map((l) => (
            <div key={l}>
              <label htmlFor={`comment${l}`} className="block text-sm font-medium text-gray-900">{{ Fr: 'En français', En: 'En anglais', Es: 'En espagnol' }[l]}</label>
              <textarea id={`comment${l}`} name={`comment${l}`} rows={3} maxLength={COMMENT_MAX} defaultValue={v[`comment${l}`] ?? ''} aria-invalid={errors[`comment${l}`] ? true : undefined} aria-describedby={errors[`comment${l}`] ? `comment${l}-error` : undefined} className={inputClass(Boolean(errors[`comment${l}`]))} />
              {errors[`comment${l}`] && <p id={`comment${l}-error`} className="mt-1 text-sm font-medium text-red-700">{errors[`comment${l}`]}</p>}
            </div>
          ))}
        </fieldset>
        <div className="flex items-center gap-3">
          <input id="published" name="published" type="checkbox" defaultChecked={v.published === 'on'} className="h-5 w-5" />
          <label htmlFor="published" className="font-medium text-gray-900">Publier {year} sur la page « Où va votre argent »</label>
        </div>
        <button type="submit" className={primaryButton}>Enregistrer</button>
      </Form>
    </div>
  );
}
