/**
 * What an import keeps about its file (ADR 036): how it is read and mapped (settings) and what its
 * dry run found (report), shared by the dry run, the import and the screens.
 */
import type { Means } from '~/domain/means/means';
import { MAX_LISTED, type ImportKind, type ImportSource, type Mapping } from './fields';
import type { Reading } from './read.server';

/** How a stored file is read: its reading, its source and the mapping field → column. */
export interface ImportSettings {
  reading: Reading;
  source: ImportSource;
  /** Gifts, or members (absent: gifts, as files were before memberships). */
  kind?: ImportKind;
  /** Members: the type given to a line whose type the file does not name or names one unknown here. */
  membershipTypeId?: string | null;
  presetId: string | null;
  mapping: Mapping;
  defaultMeans: Means;
  header: string[];
}

export interface DryRunReport {
  lines: number;
  gifts: number;
  succeeded: number;
  refunded: number;
  failed: number;
  totalCents: number;
  alreadyImported: number;
  newDonors: number;
  matchedByEmail: number;
  /** Donors recognised by name and postal code only: to review before importing. */
  matchedByName: { line: number; name: string; postalCode: string }[];
  subscribers: number;
  /** Members: lines that enter a member or renew one (dues recorded); absent in reports of gifts. */
  members?: number;
  campaignsFound: string[];
  /** Campaigns the file names and that are not here: the import creates them, ended. */
  campaignsUnknown: string[];
  rejected: { line: number; reason: string }[];
  rejectedCount: number;
  /** A sentence for a file that cannot be imported at all (missing column…): nothing will be. */
  fatal: string | null;
}

/** Counts a refused line in the report, listing it among the first ones. */
export function refuseLine(report: DryRunReport, line: number, reason: string): void {
  report.rejectedCount++;
  if (report.rejected.length < MAX_LISTED) report.rejected.push({ line, reason });
}
