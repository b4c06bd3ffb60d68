import type { DB } from '~db/index';
import { requestSignInLink } from '~/domain/donors/links.server';

/**
 * The token of a donor's single-use sign-in link, asked for as the donor space's form asks for it
 * (the mail left out): what `/mon-espace/connexion?t=…` takes. `ip` is the address the request
 * counts against (ten links per address in a quarter of an hour).
 */
export async function signInLinkToken(db: DB, email: string, ip = '10.9.0.1'): Promise<string> {
  let token = '';
  const jobs: Promise<void>[] = [];
  await requestSignInLink(db, { email, ip, deliver: (_e, t) => void (token = t), after: (job) => void jobs.push(job()) });
  await Promise.all(jobs);
  if (!token) throw new Error(`no sign-in link for ${email}: not a donor, or over the limit`);
  return token;
}
