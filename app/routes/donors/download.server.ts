import type { DonorExport } from '~/domain/donors/personal-data.server';
import { donorExportCsv } from '~/domain/donors/personal-data.server';
import { NO_STORE } from './session.server';

/** A donor's data as a file to save (the donor's own download and the Admin's). */
export function donorDownload(x: DonorExport, format: string | undefined): Response {
  const day = x.exportedAt.slice(0, 10);
  if (format === 'json') {
    return new Response(JSON.stringify(x, null, 2), {
      headers: { 'Content-Type': 'application/json; charset=utf-8', 'Content-Disposition': `attachment; filename="donnees-fondation-thv-${day}.json"`, ...NO_STORE },
    });
  }
  if (format === 'csv') {
    return new Response(donorExportCsv(x), {
      headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="donnees-fondation-thv-${day}.csv"`, ...NO_STORE },
    });
  }
  return new Response('Not Found', { status: 404, headers: { 'Content-Type': 'text/plain', ...NO_STORE } });
}
