import { membershipReport, type MembershipReport } from '~/domain/membership/report.server';
import { readReportQuery, reportRange, type ReportQuery } from '~/domain/reports/period';
import { donationReport, type DonationReport } from '~/domain/reports/reports.server';
import { db } from '~/lib/runtime.server';

/** The report for the period the request's query string names (default: the last 12 months), with the members' months. */
export async function reportFor(request: Request): Promise<{ query: ReportQuery; report: DonationReport; members: MembershipReport }> {
  const query = readReportQuery(new URL(request.url).searchParams);
  const report = await donationReport(db(), reportRange(query));
  return { query, report, members: await membershipReport(db(), report.months.map((m) => m.month)) };
}
