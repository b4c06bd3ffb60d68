import type { Route } from './+types/summary-pdf';
import { summaryPdf } from '~/domain/transparency/summary-pdf.server';
import { detectLang } from '~/lib/i18n.server';
import { db } from '~/lib/runtime.server';

/** "L'essentiel <year>" of a published year as a PDF (ADR 032), in `?lng=`'s language (French by default). */
export async function loader({ request, params }: Route.LoaderArgs) {
  const year = /^\d{4}$/.test(params.year) ? Number(params.year) : NaN;
  const { lang } = detectLang(request);
  const pdf = Number.isNaN(year) ? undefined : await summaryPdf(db(), year, lang);
  if (!pdf) throw new Response('Introuvable', { status: 404, headers: { 'Cache-Control': 'private, no-store' } });
  return new Response(new Uint8Array(pdf), {
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `inline; filename="essentiel-${year}${lang === 'fr' ? '' : `-${lang}`}.pdf"`,
      // Public figures; asked again each time so that a correction shows at once.
      'Cache-Control': 'public, no-cache',
    },
  });
}
