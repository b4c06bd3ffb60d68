import { readReportQuery, reportRange, type ReportQuery } from '~/domain/reports/period';
import { donationReport, type DonationReport } from '~/domain/reports/reports.server';
import { db } from '~/lib/runtime.server';

/** The report for the period the request's query string names (default: the last 12 months). */
export async function reportFor(request: Request): Promise<{ query: ReportQuery; report: DonationReport }> {
  const query = readReportQuery(new URL(request.url).searchParams);
  return { query, report: await donationReport(db(), reportRange(query)) };
}
