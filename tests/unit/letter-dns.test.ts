import { describe, expect, it } from 'vitest';
import { checkDkim, checkDmarc, checkSpf, domainOf, isDomain, isSelector } from '~/domain/letters/dns';
import { checkSendingDomain } from '~/domain/letters/dns.server';

describe('the sending domain’s records, in plain French', () => {
  it('reads SPF: missing, duplicated, too open, without a closing rule, or right', () => {
    expect(checkSpf('x.org', [['google-site-verification=abc']]).status).toBe('missing');
    expect(checkSpf('x.org', [['v=spf1 -all'], ['v=spf1 include:a ~all']]).status).toBe('warning');
    expect(checkSpf('x.org', [['v=spf1 include:a +all']]).message).toContain('+all');
    expect(checkSpf('x.org', [['v=spf1 include:a']]).message).toContain('ni par « ~all » ni par « -all »');
    // A long record comes in chunks.
    expect(checkSpf('x.org', [['v=spf1 include:_spf.provider', '.example ~all']])).toMatchObject({ status: 'ok', record: 'v=spf1 include:_spf.provider.example ~all' });
    expect(checkSpf('x.org', [['V=SPF1 -all']]).status).toBe('ok');
  });

  it('reads DKIM for the selector: missing, revoked, or published', () => {
    expect(checkDkim('s1._domainkey.x.org', []).status).toBe('missing');
    expect(checkDkim('s1._domainkey.x.org', [['v=DKIM1; k=rsa; p=']]).status).toBe('warning');
    expect(checkDkim('s1._domainkey.x.org', [['v=DKIM1; k=rsa; p=MIGf', 'MA0G']])).toMatchObject({ status: 'ok', record: 'v=DKIM1; k=rsa; p=MIGfMA0G' });
    expect(checkDkim('s1._domainkey.x.org', [['k=rsa; p=MIGf']]).status).toBe('ok');
  });

  it('reads DMARC: missing, duplicated, without a policy, or with one', () => {
    expect(checkDmarc('_dmarc.x.org', []).message).toContain('Gmail et Yahoo');
    expect(checkDmarc('_dmarc.x.org', [['v=DMARC1; p=none'], ['v=DMARC1; p=reject']]).status).toBe('warning');
    expect(checkDmarc('_dmarc.x.org', [['v=DMARC1; rua=mailto:a@x.org']]).status).toBe('warning');
    expect(checkDmarc('_dmarc.x.org', [['v=DMARC1; p=none; rua=mailto:a@x.org']])).toMatchObject({ status: 'ok', message: expect.stringContaining('p=none') });
    expect(checkDmarc('_dmarc.x.org', [['v=DMARC1;p=Reject']])).toMatchObject({ status: 'ok', message: 'DMARC présent (p=reject).' });
  });

  it('finds the domain of the sender and checks what the Admin types', () => {
    expect(domainOf('Fondation THV <Lettres@Fondation-THV.org>')).toBe('fondation-thv.org');
    expect(domainOf('no-reply@localhost')).toBeUndefined();
    expect([isDomain('fondation-thv.org'), isDomain('localhost'), isDomain('a..b.org'), isDomain('x.org; rm')]).toEqual([true, false, false, false]);
    expect([isSelector('s1'), isSelector('google'), isSelector(''), isSelector('a b')]).toEqual([true, true, false, false]);
  });

  it('looks up the three names, and says so clearly when DNS cannot be reached', async () => {
    const asked: string[] = [];
    const report = await checkSendingDomain('x.org', 's1', async (name) => {
      asked.push(name);
      return name === 'x.org' ? [['v=spf1 -all']] : [];
    });
    expect(asked.sort()).toEqual(['_dmarc.x.org', 's1._domainkey.x.org', 'x.org']);
    expect(report.ok && report.checks.map((c) => [c.name, c.status])).toEqual([['SPF', 'ok'], ['DKIM', 'missing'], ['DMARC', 'missing']]);
    const offline = await checkSendingDomain('x.org', 's1', async () => {
      throw Object.assign(new Error('queryTxt ECONNREFUSED'), { code: 'ECONNREFUSED' });
    });
    expect(offline).toEqual({ ok: false, error: expect.stringContaining('Les serveurs DNS ne répondent pas (ECONNREFUSED)') });
  });
});
