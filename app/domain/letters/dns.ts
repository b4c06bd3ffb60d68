/**
 * What the sending domain's DNS says about letters' deliverability (ADR 022), in plain French:
 * SPF (a `v=spf1` TXT record at the domain), DKIM (a `v=DKIM1` TXT record at
 * `selector._domainkey.domain`) and DMARC (a `v=DMARC1` TXT record at `_dmarc.domain`). Pure: the
 * records are read by dns.server.ts. Shared with the browser: no server imports.
 */
export type CheckStatus = 'ok' | 'warning' | 'missing';

export interface DnsCheck {
  name: 'SPF' | 'DKIM' | 'DMARC';
  /** The name looked up. */
  host: string;
  status: CheckStatus;
  /** What it means, in French. */
  message: string;
  record?: string;
}

/** TXT answers come in chunks: each record joined. */
const joined = (records: string[][]): string[] => records.map((chunks) => chunks.join(''));

export function checkSpf(host: string, records: string[][]): DnsCheck {
  const spf = joined(records).filter((r) => /^v=spf1(\s|$)/i.test(r.trim()));
  if (spf.length === 0) return { name: 'SPF', host, status: 'missing', message: 'Aucun enregistrement SPF : ajoutez un TXT « v=spf1 … » qui autorise votre fournisseur d’envoi.' };
  if (spf.length > 1) return { name: 'SPF', host, status: 'warning', message: 'Plusieurs enregistrements SPF : les fournisseurs les refusent tous. Fusionnez-les en un seul.', record: spf.join(' | ') };
  const record = spf[0].trim();
  if (/\+all\b/i.test(record)) return { name: 'SPF', host, status: 'warning', message: 'Le SPF se termine par « +all » : n’importe qui peut envoyer en votre nom. Terminez par « ~all » ou « -all ».', record };
  if (!/[~-]all\b/i.test(record)) return { name: 'SPF', host, status: 'warning', message: 'Le SPF ne se termine ni par « ~all » ni par « -all » : les autres expéditeurs ne sont pas refusés.', record };
  return { name: 'SPF', host, status: 'ok', message: 'SPF présent. Vérifiez qu’il inclut bien votre fournisseur d’envoi.', record };
}

export function checkDkim(host: string, records: string[][]): DnsCheck {
  const dkim = joined(records).find((r) => /(^|;)\s*v=DKIM1\s*(;|$)/i.test(r) || /(^|;)\s*p=/i.test(r));
  if (!dkim) return { name: 'DKIM', host, status: 'missing', message: 'Aucune clé DKIM pour ce sélecteur : publiez la clé que donne votre fournisseur, ou vérifiez le sélecteur.' };
  if (/(^|;)\s*p=\s*(;|$)/i.test(dkim)) return { name: 'DKIM', host, status: 'warning', message: 'La clé DKIM de ce sélecteur est vide (révoquée) : les courriels signés avec elle échouent.', record: dkim };
  return { name: 'DKIM', host, status: 'ok', message: 'Clé DKIM publiée pour ce sélecteur.', record: dkim };
}

export function checkDmarc(host: string, records: string[][]): DnsCheck {
  const dmarc = joined(records).filter((r) => /^v=DMARC1\s*(;|$)/i.test(r.trim()));
  if (dmarc.length === 0) return { name: 'DMARC', host, status: 'missing', message: 'Aucun enregistrement DMARC : Gmail et Yahoo l’exigent pour les envois en nombre. Ajoutez au moins « v=DMARC1; p=none; ».' };
  if (dmarc.length > 1) return { name: 'DMARC', host, status: 'warning', message: 'Plusieurs enregistrements DMARC : aucun n’est appliqué. Gardez-en un seul.', record: dmarc.join(' | ') };
  const record = dmarc[0].trim();
  const policy = /(^|;)\s*p=\s*(none|quarantine|reject)\s*(;|$)/i.exec(record)?.[2]?.toLowerCase();
  if (!policy) return { name: 'DMARC', host, status: 'warning', message: 'L’enregistrement DMARC n’a pas de politique valable (p=none, quarantine ou reject).', record };
  return { name: 'DMARC', host, status: 'ok', message: policy === 'none' ? 'DMARC présent (p=none : suffisant pour envoyer ; plus protecteur avec quarantine ou reject).' : `DMARC présent (p=${policy}).`, record };
}

/** The domain of an address such as `Fondation THV <lettres@example.org>`. */
export function domainOf(address: string): string | undefined {
  return /@([a-z0-9.-]+\.[a-z]{2,})>?\s*$/i.exec(address.trim())?.[1].toLowerCase();
}

export const isDomain = (v: string): boolean => /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i.test(v);
export const isSelector = (v: string): boolean => /^[a-z0-9](?:[a-z0-9._-]{0,62})$/i.test(v);
