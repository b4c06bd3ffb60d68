import type { DryRunReport } from '~/domain/imports/imports.server';
import { AdminTable } from '~/ui/admin/AdminTable';
import { Notice } from '~/ui/admin/Field';

/** The dry run's report (ADR 036): what the import would do, the donors to review, each refused line. */
export function ImportReport({ report: r, money }: { report: DryRunReport; money: (cents: number) => string }) {
  if (r.fatal)
    return (
      <Notice tone="error" title="Ce fichier ne peut pas être importé" testId="import-fatal">
        {r.fatal}
      </Notice>
    );
  const rows: [string, string | number][] = r.members !== undefined ? [
    ['Lignes lues', r.lines],
    ['Adhésions (membres inscrits ou renouvelés, cotisation enregistrée, aucun courriel)', r.members],
    ['Déjà importées (ignorées)', r.alreadyImported],
    ['Lignes refusées', r.rejectedCount],
  ] : [
    ['Lignes lues', r.lines],
    ['Dons', `${r.gifts} (${r.succeeded} réussis pour ${money(r.totalCents)}, ${r.refunded} remboursés, ${r.failed} refusés ou impayés)`],
    ['Déjà importés (ignorés)', r.alreadyImported],
    ['Nouveaux donateurs', r.newDonors],
    ['Donateurs reconnus par leur e-mail', r.matchedByEmail],
    ['Donateurs reconnus par nom et code postal (à vérifier)', r.matchedByName.length],
    ['Abonnés aux nouvelles (avec preuve de consentement)', r.subscribers],
    ['Lignes refusées', r.rejectedCount],
  ];
  return (
    <section className="space-y-4" data-testid="import-report">
      <h2 className="text-xl font-bold text-gray-900">Essai à blanc : ce que l’import ferait</h2>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-1 sm:grid-cols-2">
        {rows.map(([k, v]) => (
          <div key={k} className="flex justify-between gap-3 border-b border-gray-200 py-1">
            <dt className="text-gray-700">{k}</dt>
            <dd className="font-semibold text-gray-900">{v}</dd>
          </div>
        ))}
      </dl>
      {r.campaignsUnknown.length > 0 && (
        <p className="text-gray-700">Campagnes à créer (terminées, elles ne s’ouvrent pas aux dons) : {r.campaignsUnknown.map((c) => `« ${c} »`).join(', ')}.</p>
      )}
      {r.matchedByName.length > 0 && (
        <AdminTable caption="Donateurs reconnus par nom et code postal, à vérifier" columns={['Ligne', 'Nom', 'Code postal']}>
          {r.matchedByName.map((m) => (
            <tr key={m.line}>
              <td className="px-4 py-2">{m.line}</td>
              <td className="px-4 py-2">{m.name}</td>
              <td className="px-4 py-2">{m.postalCode}</td>
            </tr>
          ))}
        </AdminTable>
      )}
      {r.rejected.length > 0 && (
        <AdminTable caption={`Lignes refusées (${r.rejectedCount}${r.rejectedCount > r.rejected.length ? `, les ${r.rejected.length} premières` : ''}) : elles ne seront pas importées`} columns={['Ligne', 'Motif']}>
          {r.rejected.map((x) => (
            <tr key={x.line}>
              <td className="px-4 py-2">{x.line}</td>
              <td className="px-4 py-2">Ligne {x.line} : {x.reason}</td>
            </tr>
          ))}
        </AdminTable>
      )}
    </section>
  );
}
