import { Form, Link, redirect } from 'react-router';
import type { Route } from './+types/list';
import { createImport, dryRun, IMPORT_STATUS_LABELS, listImports, type ImportStatus } from '~/domain/imports/imports.server';
import { MAX_IMPORT_BYTES, SOURCE_LABELS, type ImportSource } from '~/domain/imports/fields';
import { FileError } from '~/domain/imports/read.server';
import { receiveImportFile } from '~/domain/imports/upload.server';
import { formError } from '~/lib/form-errors.server';
import { dayFr } from '~/lib/paris';
import { runtime } from '~/lib/runtime.server';
import { actorOf, requireUser } from '~/routes/admin/auth.server';
import { AdminTable } from '~/ui/admin/AdminTable';
import { Notice, primaryButton } from '~/ui/admin/Field';

/** Moving in (ADR 036): a file sent, then checked and imported on its own page; the imports so far. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'imports', role: 'Admin' });
  const imports = await listImports(runtime().db);
  return {
    imports: imports.map((i) => ({ id: i.id, file: i.file_name, source: SOURCE_LABELS[i.source as ImportSource] ?? i.source, status: IMPORT_STATUS_LABELS[i.status as ImportStatus] ?? i.status, on: dayFr(i.created_at.slice(0, 10)), gifts: i.imported_count, by: i.created_by })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context, { area: 'imports', role: 'Admin' });
  const file = await receiveImportFile(request);
  if (!file.ok) return formError({ error: file.message });
  try {
    const i = await createImport(runtime().db, runtime().storage, actorOf(user), file.name, file.data);
    // The dry run at once, with the preset the header names (or the mapping guessed): its report is on the import's page.
    await dryRun(runtime().db, runtime().storage, i.id);
    throw redirect(`/admin/imports/${i.id}`);
  } catch (e) {
    if (e instanceof FileError) return formError({ error: e.message });
    throw e;
  }
}

export const meta: Route.MetaFunction = () => [{ title: 'Importer | Administration' }, { name: 'robots', content: 'noindex' }];

export default function ImportsScreen({ loaderData, actionData }: Route.ComponentProps) {
  const error = actionData && 'error' in actionData ? actionData.error : undefined;
  return (
    <div className="max-w-4xl space-y-6">
      <h1 className="text-3xl font-bold text-gray-900">Importer des dons</h1>
      <p className="text-gray-700">
        Reprenez l’historique des dons et des adhésions d’un autre outil : export des paiements ou des adhésions HelloAsso, export des dons GiveWP, ou tout tableur (CSV, ou la première feuille d’un classeur XLSX). Un essai à blanc montre
        d’abord ce qui serait importé, sans rien modifier. Aucun courriel ni reçu n’est envoyé pour ce qui est importé, et un import peut être annulé en entier.
      </p>
      {error && (
        <Notice tone="error" title="Le fichier n’a pas été retenu" testId="import-error">
          {error}
        </Notice>
      )}
      <section className="space-y-3 rounded-lg border border-gray-200 bg-white p-4">
        <h2 className="text-xl font-bold text-gray-900">Envoyer un fichier</h2>
        <Form method="post" encType="multipart/form-data" className="space-y-3">
          <div>
            <label htmlFor="file" className="block text-sm font-medium text-gray-900">
              Fichier CSV ou XLSX (au plus {MAX_IMPORT_BYTES / 1024 / 1024} Mo)
            </label>
            <input id="file" name="file" type="file" accept=".csv,.txt,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" required aria-describedby="file-hint" className="mt-1 block w-full max-w-full" />
            <p id="file-hint" className="mt-1 text-sm text-gray-600">
              L’encodage (UTF-8 ou Windows-1252 d’Excel) et le séparateur (point-virgule, virgule, tabulation) sont reconnus. D’un classeur XLSX, seule la première feuille est lue.
            </p>
          </div>
          <button type="submit" className={primaryButton}>
            Envoyer et vérifier
          </button>
        </Form>
      </section>
      <section className="space-y-3">
        <h2 className="text-xl font-bold text-gray-900">Imports</h2>
        {loaderData.imports.length === 0 ? (
          <p className="text-gray-700">Aucun import pour l’instant.</p>
        ) : (
          <AdminTable caption="Imports" columns={['Fichier', 'Source', 'Envoyé le', 'Par', 'Dons ou adhésions importés', 'État']}>
            {loaderData.imports.map((i) => (
              <tr key={i.id}>
                <td className="px-4 py-3">
                  <Link to={`/admin/imports/${i.id}`} className="underline">
                    {i.file}
                  </Link>
                </td>
                <td className="px-4 py-3">{i.source}</td>
                <td className="px-4 py-3 whitespace-nowrap">{i.on}</td>
                <td className="px-4 py-3">{i.by}</td>
                <td className="px-4 py-3">{i.gifts}</td>
                <td className="px-4 py-3">{i.status}</td>
              </tr>
            ))}
          </AdminTable>
        )}
      </section>
    </div>
  );
}
