import { Form, Link, data } from 'react-router';
import type { Route } from './+types/history';
import { LANG_LABELS } from '~/domain/content/forms';
import { KIND_LABELS, changedPaths, compareSnapshots, formatParis } from '~/domain/revisions/editorial';
import { changedKeys } from '~/domain/revisions/editables.server';
import { editableAt } from '~/domain/revisions/registry.server';
import { listRevisions, revisionSnapshots } from '~/domain/revisions/revisions.server';
import { restoreRevision } from '~/domain/revisions/workflow.server';
import { actorOf, requireUser } from '~/routes/admin/auth.server';
import { contentChanged, db } from '~/lib/runtime.server';
import { AdminTable } from '~/ui/admin/AdminTable';
import { ScrollRegion } from '~/ui/admin/ScrollRegion';
import { Notice, inputClass, primaryButton, secondaryButton } from '~/ui/admin/Field';
import { td } from '~/ui/admin/content';
import { useHydrated, useToast } from '~/ui/admin/hooks';

async function itemOf(request: Request, context: Route.LoaderArgs['context']) {
  const found = editableAt(new URL(request.url).pathname);
  if (!found) throw data('Introuvable', { status: 404 });
  const me = await requireUser(request, context, { area: found.ed.area });
  const live = await found.ed.read(db(), found.id);
  if (!live) throw data('Introuvable', { status: 404 });
  return { ...found, me, live };
}

const labelOf = (labels: Record<string, string>, path: string) => {
  const field = path.split('.').pop() ?? path;
  return labels[field] ?? field;
};

/** An item's revisions, what each changed, a side-by-side comparison of two, and "Restaurer". */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { ed, id, live } = await itemOf(request, context);
  const ref = { type: ed.type, id };
  const summaries = await listRevisions(db(), ref);
  const snapshots = await revisionSnapshots(db(), ref);
  const revisions = summaries.map((r, i) => {
    const previous = summaries[i + 1];
    const changed = changedPaths(previous ? snapshots.get(previous.number) : undefined, snapshots.get(r.number)!);
    const fields = [...new Set(changed.map((p) => labelOf(ed.fieldLabels, p)))];
    return { ...r, at: formatParis(r.createdAt), changed: previous ? fields.join(', ') || 'Aucun changement' : 'Première version' };
  });
  const url = new URL(request.url);
  const pick = (name: string, fallback: number | undefined) => {
    const n = Number(url.searchParams.get(name));
    return snapshots.has(n) ? n : fallback;
  };
  const b = pick('b', summaries[0]?.number);
  const a = pick('a', summaries[1]?.number ?? b);
  const diffs =
    a !== undefined && b !== undefined
      ? compareSnapshots(snapshots.get(a)!, snapshots.get(b)!).map((d) => ({ ...d, label: labelOf(ed.fieldLabels, d.path), langLabel: d.lang ? LANG_LABELS[d.lang] : '—' }))
      : [];
  return { label: live.label, version: live.version, editPath: `${ed.adminPath}/${encodeURIComponent(id)}`, revisions, a, b, diffs };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { ed, id, me } = await itemOf(request, context);
  const form = await request.formData();
  const number = Number(form.get('number'));
  const version = Number(form.get('version'));
  if (!Number.isInteger(number) || !Number.isInteger(version)) return data({ ok: false, message: 'Version invalide.', toast: null }, { status: 400 });
  const result = await restoreRevision(db(), ed, id, number, version, actorOf(me));
  if (!result.ok) {
    const message = {
      conflict: 'Cet élément a été modifié entre-temps : rechargez la page avant de restaurer.',
      notFound: "Cette version n'existe plus.",
      taken: 'Un autre élément utilise désormais une valeur de cette version (par exemple son adresse) : modifiez-le ou choisissez une autre version.',
    }[result.error];
    const status = { conflict: 409, notFound: 404, taken: 409 }[result.error];
    return data({ ok: false, message, toast: { title: 'Restauration impossible', description: message, variant: 'destructive' as const } }, { status });
  }
  await contentChanged(changedKeys(ed, id));
  const message = `La version ${number} est restaurée (nouvelle version ${result.revision}).`;
  return { ok: true, message, toast: { title: 'Version restaurée', description: message, variant: 'success' as const } };
}

export const meta: Route.MetaFunction = () => [{ title: 'Historique des versions | Administration' }, { name: 'robots', content: 'noindex' }];

function Side({ parts, side }: { parts: { value: string; added: boolean; removed: boolean }[]; side: 'before' | 'after' }) {
  return (
    <span className="whitespace-pre-wrap break-words">
      {parts.map((p, i) => {
        if (side === 'before' && p.added) return null;
        if (side === 'after' && p.removed) return null;
        if (p.removed) return <del key={i} className="bg-red-100 text-red-900">{p.value}</del>;
        if (p.added) return <ins key={i} className="bg-green-100 text-green-900 no-underline">{p.value}</ins>;
        return <span key={i}>{p.value}</span>;
      })}
    </span>
  );
}

export default function History({ loaderData, actionData }: Route.ComponentProps) {
  const { label, version, editPath, revisions, a, b, diffs } = loaderData;
  const hydrated = useHydrated();
  useToast(actionData?.toast);
  const changed = diffs.filter((d) => d.changed);
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="min-w-0 text-3xl font-bold text-gray-900 wrap-anywhere">Historique des versions : {label}</h1>
        <Link to={editPath} className={secondaryButton}>
          Retour à l’édition
        </Link>
      </div>
      {!hydrated && actionData && <Notice tone={actionData.ok ? 'success' : 'error'}>{actionData.message}</Notice>}
      <AdminTable caption="Versions enregistrées, de la plus récente à la plus ancienne" columns={['Version', 'Date (heure de Paris)', 'Auteur', 'Type', 'Champs modifiés']}>
        {revisions.map((r, i) => (
          <tr key={r.number} data-testid="revision-row">
            <td className={`${td} font-medium text-gray-900`}>{r.number}</td>
            <td className={td}>{r.at}</td>
            <td className={td}>{r.authorName}</td>
            <td className={td}>{KIND_LABELS[r.kind]}</td>
            <td className={td}>{r.changed}</td>
            <td className={td}>
              {i > 0 && (
                <Form method="post">
                  <input type="hidden" name="number" value={r.number} />
                  <input type="hidden" name="version" value={version} />
                  <button type="submit" className={secondaryButton}>
                    Restaurer la version {r.number}
                  </button>
                </Form>
              )}
            </td>
          </tr>
        ))}
      </AdminTable>
      <section aria-labelledby="compare-heading" className="space-y-4">
        <h2 id="compare-heading" className="text-xl font-semibold text-gray-900">
          Comparer deux versions
        </h2>
        <Form method="get" className="flex flex-wrap items-end gap-4">
          {(['a', 'b'] as const).map((side) => (
            <div key={side}>
              <label htmlFor={`compare-${side}`} className="block text-sm font-medium text-gray-900">
                {side === 'a' ? 'Version de gauche' : 'Version de droite'}
              </label>
              <select id={`compare-${side}`} name={side} defaultValue={side === 'a' ? a : b} className={inputClass(false)}>
                {revisions.map((r) => (
                  <option key={r.number} value={r.number}>
                    {`Version ${r.number} — ${r.at}`}
                  </option>
                ))}
              </select>
            </div>
          ))}
          <button type="submit" className={primaryButton}>
            Comparer
          </button>
        </Form>
        {a !== undefined && b !== undefined && (
          <ScrollRegion label="Comparaison des versions" className="rounded-xl border border-gray-200 bg-white shadow-sm">
            <table className="min-w-full divide-y divide-gray-200 text-left" data-testid="comparison">
              <caption className="px-4 py-3 text-left font-medium text-gray-900">
                Version {a} et version {b} : {changed.length === 0 ? 'aucune différence' : `${changed.length} champ${changed.length > 1 ? 's' : ''} différent${changed.length > 1 ? 's' : ''}`}
                {diffs.length > changed.length && ` (${diffs.length - changed.length} identiques masqués)`}
              </caption>
              <thead className="bg-gray-50 text-sm text-gray-700">
                <tr>
                  <th scope="col" className="px-4 py-3 font-semibold">Champ</th>
                  <th scope="col" className="px-4 py-3 font-semibold">Langue</th>
                  <th scope="col" className="px-4 py-3 font-semibold">Version {a}</th>
                  <th scope="col" className="px-4 py-3 font-semibold">Version {b}</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-gray-100 align-top text-sm">
                {changed.map((d) => (
                  <tr key={d.path}>
                    <th scope="row" className={`${td} font-medium text-gray-900`}>
                      {d.label}
                    </th>
                    <td className={td}>{d.langLabel}</td>
                    <td className={td}>
                      <Side parts={d.parts} side="before" />
                    </td>
                    <td className={td}>
                      <Side parts={d.parts} side="after" />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        )}
      </section>
    </div>
  );
}
