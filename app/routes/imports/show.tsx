import { Form, Link, redirect } from 'react-router';
import type { Route } from './+types/show';
import { BUILT_IN_PRESETS, FIELD_LABELS, FIELDS, IMPORT_KIND_LABELS, IMPORT_KINDS, SOURCE_LABELS, SOURCES, type Field, type ImportKind, type ImportSource, type Mapping } from '~/domain/imports/fields';
import { listTypes } from '~/domain/membership/types.server';
import { dryRun, getImport, IMPORT_STATUS_LABELS, listPresets, reportOf, savePreset, setMapping, settingsOf, type ImportStatus } from '~/domain/imports/imports.server';
import { DELIMITER_LABELS, ENCODING_LABELS } from '~/domain/imports/read.server';
import { runImport, startImport, undoBlocker, undoImport } from '~/domain/imports/run.server';
import { isMeans, MEANS, staffMeansLabel, type Means } from '~/domain/means/means';
import { formatMoney } from '~/lib/currency';
import { formError } from '~/lib/form-errors.server';
import { log } from '~/lib/log.server';
import { runtime } from '~/lib/runtime.server';
import { actorOf, requireUser } from '~/routes/admin/auth.server';
import { AdminTable } from '~/ui/admin/AdminTable';
import { dangerButton, Field as TextField, Notice, primaryButton, secondaryButton, SelectField } from '~/ui/admin/Field';
import { ImportReport } from './report';

const MEANS_LABELS = Object.fromEntries(MEANS.map((m) => [m, staffMeansLabel(m)]));

/** One import: how the file is read and mapped, its dry run's report, the import and its progress, its undoing (ADR 036). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'imports', role: 'Admin' });
  const db = runtime().db;
  const i = await getImport(db, params.importId);
  if (!i) throw new Response('Introuvable', { status: 404 });
  const settings = settingsOf(i);
  const status = i.status as ImportStatus;
  return {
    id: i.id,
    file: i.file_name,
    status,
    statusLabel: IMPORT_STATUS_LABELS[status],
    reading: `${ENCODING_LABELS[settings.reading.encoding]}, séparateur ${DELIMITER_LABELS[settings.reading.delimiter]}`,
    source: settings.source,
    header: settings.header,
    mapping: settings.mapping,
    defaultMeans: settings.defaultMeans,
    kind: settings.kind ?? 'gifts',
    membershipTypeId: settings.membershipTypeId ?? '',
    types: (await listTypes(db)).map((t) => ({ id: t.id, name: t.translations.fr.name })),
    presets: (await listPresets(db)).map((p) => ({ id: p.id, label: p.label })),
    report: reportOf(i),
    progress: { done: i.cursor, total: i.total_lines, imported: i.imported_count },
    error: i.error,
    undoBlocker: status === 'done' || status === 'failed' ? await undoBlocker(db, i.id) : null,
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const user = await requireUser(request, context, { area: 'imports', role: 'Admin' });
  const { db, storage } = runtime();
  const id = params.importId;
  const form = await request.formData();
  const text = (k: string) => String(form.get(k) ?? '').trim();
  const intent = text('intent');
  if (intent === 'mapping' || intent === 'preset') {
    const presetId = text('preset');
    const builtIn = BUILT_IN_PRESETS.find((p) => p.id === presetId);
    const saved = intent === 'preset' && !builtIn ? (await db.selectFrom('import_presets').select('mapping').where('id', '=', presetId).executeTakeFirst()) : undefined;
    if (intent === 'preset' && !builtIn && !saved) return formError({ error: 'Choisissez une correspondance enregistrée.' });
    const mapping: Mapping = {};
    if (intent === 'preset') Object.assign(mapping, builtIn?.mapping ?? (JSON.parse(saved!.mapping) as Mapping));
    else for (const f of FIELDS) if (text(`col_${f}`)) mapping[f] = text(`col_${f}`).slice(0, 200);
    const source = (intent === 'preset' ? builtIn?.source : text('source')) ?? 'spreadsheet';
    if (!(SOURCES as readonly string[]).includes(source)) return formError({ error: 'Choisissez la source du fichier.' });
    const means = intent === 'preset' ? (builtIn?.defaultMeans ?? 'transfer') : text('default_means');
    if (!isMeans(means)) return formError({ error: 'Choisissez le moyen de paiement par défaut.' });
    const current = await getImport(db, id);
    const kind = intent === 'preset' ? (builtIn?.kind ?? (current ? settingsOf(current).kind : undefined) ?? 'gifts') : text('kind');
    if (!(IMPORT_KINDS as readonly string[]).includes(kind)) return formError({ error: 'Choisissez ce que contient le fichier : des dons ou des adhésions.' });
    const typeId = intent === 'preset' ? (current ? (settingsOf(current).membershipTypeId ?? null) : null) : text('membership_type') || null;
    if (typeId && !(await listTypes(db)).some((t) => t.id === typeId)) return formError({ error: 'Choisissez un type d’adhésion de la liste.' });
    const change = { source: source as ImportSource, kind: kind as ImportKind, membershipTypeId: typeId, mapping, defaultMeans: means as Means, presetId: builtIn?.id ?? null };
    if (!(await setMapping(db, id, change))) return formError({ error: 'Cet import ne peut plus être modifié.' });
    const name = text('preset_name').slice(0, 80);
    if (intent === 'mapping' && name) await savePreset(db, actorOf(user), name, mapping);
    await dryRun(db, storage, id);
    throw redirect(`/admin/imports/${id}`);
  }
  if (intent === 'start') {
    if (!(await startImport(db, actorOf(user), id))) return formError({ error: 'Cet import ne peut pas commencer : refaites l’essai à blanc.' });
    // Run in the background; the job resumes it after a restart (run.server.ts).
    void runImport(db, storage, id).catch((e) => log.warn('import run failed', { error: e instanceof Error ? e.message : String(e) }));
    throw redirect(`/admin/imports/${id}`);
  }
  if (intent === 'undo') {
    const r = await undoImport(db, storage, actorOf(user), id);
    if (!r.ok) return formError({ error: r.message });
    return { done: `Import annulé : ${r.gifts} don(s), ${r.subscribers} abonné(s), ${r.members} membre(s) et ${r.campaigns} campagne(s) créée(s) par lui retirés.` };
  }
  return formError({ error: 'Demande inconnue : rechargez la page.' });
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: 'Import | Administration' },
  { name: 'robots', content: 'noindex' },
  // While it runs, the page refreshes itself (its progress without JavaScript).
  ...(loaderData?.status === 'running' ? [{ httpEquiv: 'refresh', content: '2' } as const] : []),
];

export default function ImportScreen({ loaderData: d, actionData }: Route.ComponentProps) {
  const error = actionData && 'error' in actionData ? actionData.error : undefined;
  const done = actionData && 'done' in actionData ? actionData.done : undefined;
  const editable = d.status === 'uploaded' || d.status === 'checked';
  return (
    <div className="max-w-5xl space-y-6">
      <p>
        <Link to="/admin/imports" className="underline">
          ← Tous les imports
        </Link>
      </p>
      <h1 className="text-3xl font-bold text-gray-900">Import « {d.file} »</h1>
      <p className="text-gray-700">
        {d.statusLabel} · {SOURCE_LABELS[d.source]} · lu en {d.reading}
      </p>
      {error && <Notice tone="error" title="Rien n’a été modifié">{error}</Notice>}
      {done && <Notice tone="success" title={done} />}
      {d.error && <Notice tone="error" title="L’import s’est arrêté">{d.error}</Notice>}

      {(d.status === 'running' || d.status === 'done' || d.status === 'failed') && (
        <section className="space-y-2 rounded-lg border border-gray-200 bg-white p-4" aria-live="polite">
          <h2 className="text-xl font-bold text-gray-900">Progression</h2>
          <label htmlFor="progress" className="block text-gray-800">
            {d.progress.done} ligne(s) traitée(s) sur {d.progress.total} · {d.progress.imported} {d.kind === 'members' ? 'adhésion(s) ajoutée(s)' : 'don(s) ajouté(s)'}
          </label>
          <progress id="progress" max={Math.max(d.progress.total, 1)} value={d.progress.done} className="w-full" />
          {d.status === 'running' && (
            <p>
              <Link to={`/admin/imports/${d.id}`} className="underline">
                Actualiser
              </Link>{' '}
              (la page s’actualise seule toutes les deux secondes)
            </p>
          )}
        </section>
      )}

      {d.report && <ImportReport report={d.report} money={(c) => formatMoney(c, 'EUR')} />}

      {d.status === 'checked' && d.report && !d.report.fatal && (
        <Form method="post">
          <input type="hidden" name="intent" value="start" />
          <button type="submit" className={primaryButton}>
            {d.kind === 'members' ? `Importer ${(d.report.members ?? 0) - d.report.alreadyImported} adhésion(s)` : `Importer ${d.report.gifts - d.report.alreadyImported} don(s)`}
          </button>
        </Form>
      )}

      {(d.status === 'done' || d.status === 'failed') && (
        <section className="space-y-2 rounded-lg border border-gray-200 bg-white p-4">
          <h2 className="text-xl font-bold text-gray-900">Annuler cet import</h2>
          {d.undoBlocker ? (
            <p className="text-gray-700">{d.undoBlocker}</p>
          ) : (
            <Form method="post" className="space-y-2">
              <p className="text-gray-700">Retire tous les dons et cotisations de cet import, les abonnés et les membres qu’il a seul apportés, et les campagnes qu’il a créées si rien d’autre ne s’y rapporte. Le reste ne change pas.</p>
              <input type="hidden" name="intent" value="undo" />
              <button type="submit" className={dangerButton}>
                Annuler l’import
              </button>
            </Form>
          )}
        </section>
      )}

      {editable && (
        <section className="space-y-4 rounded-lg border border-gray-200 bg-white p-4">
          <h2 className="text-xl font-bold text-gray-900">Colonnes du fichier</h2>
          <Form method="post" className="flex flex-wrap items-end gap-3">
            <input type="hidden" name="intent" value="preset" />
            <SelectField name="preset" label="Appliquer une correspondance connue" options={d.presets.map((p) => p.id)} labels={Object.fromEntries(d.presets.map((p) => [p.id, p.label]))} />
            <button type="submit" className={secondaryButton}>
              Appliquer
            </button>
          </Form>
          <Form method="post" className="space-y-3">
            <input type="hidden" name="intent" value="mapping" />
            <SelectField name="source" label="Source" options={SOURCES} labels={SOURCE_LABELS} defaultValue={d.source} />
            <SelectField name="kind" label="Le fichier contient" options={IMPORT_KINDS} labels={IMPORT_KIND_LABELS} defaultValue={d.kind} />
            <SelectField
              name="membership_type"
              label="Adhésions : type des lignes qui n’en indiquent pas un connu ici"
              options={d.types.map((t) => t.id)}
              labels={Object.fromEntries(d.types.map((t) => [t.id, t.name]))}
              empty="— aucun : ces lignes sont refusées —"
              defaultValue={d.membershipTypeId}
            />
            <SelectField name="default_means" label="Moyen de paiement quand le fichier n’en indique pas" options={MEANS} labels={MEANS_LABELS} defaultValue={d.defaultMeans} />
            <AdminTable caption="Correspondance des colonnes" columns={['Information', 'Colonne du fichier']}>
              {FIELDS.map((f: Field) => (
                <tr key={f}>
                  <td className="px-4 py-2">
                    <label htmlFor={`col_${f}`}>{FIELD_LABELS[f]}</label>
                  </td>
                  <td className="px-4 py-2">
                    <select id={`col_${f}`} name={`col_${f}`} defaultValue={d.mapping[f] ?? ''} className="rounded border border-gray-400 px-2 py-1">
                      <option value="">— aucune —</option>
                      {d.header.map((h) => (
                        <option key={h} value={h}>
                          {h}
                        </option>
                      ))}
                    </select>
                  </td>
                </tr>
              ))}
            </AdminTable>
            <TextField name="preset_name" label="Enregistrer cette correspondance sous le nom (facultatif)" maxLength={80} />
            <button type="submit" className={primaryButton}>
              Vérifier de nouveau (essai à blanc)
            </button>
          </Form>
        </section>
      )}
    </div>
  );
}
