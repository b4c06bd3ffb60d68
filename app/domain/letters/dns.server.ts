import { Resolver } from 'node:dns/promises';
import { checkDkim, checkDmarc, checkSpf, type DnsCheck } from './dns';

/** Reads TXT records (Node's resolver, or a test's); returns [] for a name that has none. */
export type TxtLookup = (name: string) => Promise<string[][]>;

const NO_RECORD = new Set(['ENOTFOUND', 'ENODATA']);

export function systemLookup(timeoutMs = 5000): TxtLookup {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 2 });
  return async (name) => {
    try {
      return await resolver.resolveTxt(name);
    } catch (e) {
      if (NO_RECORD.has((e as NodeJS.ErrnoException).code ?? '')) return [];
      throw e;
    }
  };
}

export type DnsReport = { ok: true; checks: DnsCheck[] } | { ok: false; error: string };

/** SPF, DKIM and DMARC of the sending domain; a clear message when DNS cannot be reached (offline). */
export async function checkSendingDomain(domain: string, selector: string, lookup: TxtLookup = systemLookup()): Promise<DnsReport> {
  const dkimHost = `${selector}._domainkey.${domain}`;
  const dmarcHost = `_dmarc.${domain}`;
  try {
    const [spf, dkim, dmarc] = await Promise.all([lookup(domain), lookup(dkimHost), lookup(dmarcHost)]);
    return { ok: true, checks: [checkSpf(domain, spf), checkDkim(dkimHost, dkim), checkDmarc(dmarcHost, dmarc)] };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? '';
    return { ok: false, error: `Les serveurs DNS ne répondent pas (${code || 'erreur'}) : le site est peut-être hors ligne. Réessayez plus tard, ou vérifiez ces enregistrements chez votre hébergeur DNS.` };
  }
}
