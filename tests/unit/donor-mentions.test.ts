import { describe, expect, it } from 'vitest';
import { donorMentions, fullNames } from '~/domain/donors/mentions';

const EMAIL = 'awa.diallo@example.org';
const REF = 'donateur 0123456789ab';

describe('how an erased donor is recognised in mails and audit lines', () => {
  it('keeps full names only, once each, the longest first', () => {
    expect(fullNames(['Awa', '  Awa   Diallo ', 'awa diallo', null, undefined, '', 'Awa Diallo-Ba Sow'])).toEqual(['Awa Diallo-Ba Sow', 'Awa Diallo']);
  });

  it('finds the email in any case, and a full name as whole words, however spaced or cased', () => {
    const m = donorMentions(EMAIL, ['Awa Diallo', 'Éloïse Dupré', 'Awa']);
    expect(m.in(`De : AWA.Diallo@Example.org`)).toBe(true);
    expect(m.in('Bonjour AWA  DIALLO,')).toBe(true);
    expect(m.in('Merci éloïse dupré !')).toBe(true);
    // Not inside another word, and never a lone first name (another donor's, perhaps).
    expect(m.in('Kawa Diallos a écrit')).toBe(false);
    expect(m.in('Awa Traoré a écrit')).toBe(false);
    expect(m.in('Diallo')).toBe(false);
  });

  it('replaces every mention by the reference, an address signed "Name <email>" whole', () => {
    const m = donorMentions(EMAIL, ['Awa Diallo']);
    expect(m.rewrite(`Awa Diallo-Ba <${EMAIL}>`, REF)).toBe(REF);
    expect(m.rewrite('Rappel de Awa Diallo', REF)).toBe(`Rappel de ${REF}`);
    expect(m.rewrite(EMAIL.toUpperCase(), REF)).toBe(REF);
    // In a JSON document, a replacement never crosses a string's quotes.
    expect(m.rewrite(JSON.stringify({ from: `A. D. <${EMAIL}>`, note: 'awa diallo', id: 'm-1' }), REF)).toBe(JSON.stringify({ from: REF, note: REF, id: 'm-1' }));
    expect(m.rewrite('Projet Kawa Diallos', REF)).toBe('Projet Kawa Diallos');
  });

  it('gives a database the email and one word of each name to pre-select rows with', () => {
    expect(donorMentions(EMAIL, ['Awa Diallo', 'Jo N’Diaye']).fragments).toEqual([EMAIL, 'Diallo', 'N’Diaye']);
  });
});
