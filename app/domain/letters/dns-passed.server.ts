import type { DB } from '~db/index';
import { putSettingDocument, readSettingDocument } from '~/lib/settings-document.server';
import type { DnsCheck } from './dns';

/**
 * The last time the sending domain passed its DNS check (SPF, DKIM and DMARC all correct): kept so
 * the dashboard's setup checklist (ADR 037) can tick the step without asking DNS on every page.
 */
const KEY = 'letters.dnsPassed';

/** Records the check when every record was correct; a check that found something to fix changes nothing. */
export async function recordDnsCheck(db: DB, domain: string, selector: string, checks: DnsCheck[], now = new Date()): Promise<void> {
  if (checks.length === 0 || checks.some((c) => c.status !== 'ok')) return;
  await putSettingDocument(db, KEY, { domain: domain.toLowerCase(), selector, at: now.toISOString() }, now);
}

/** The domain that last passed, or null. */
export async function passedDomain(db: DB): Promise<string | null> {
  const { value } = await readSettingDocument(db, KEY);
  const domain = (value as { domain?: unknown } | null)?.domain;
  return typeof domain === 'string' ? domain : null;
}
