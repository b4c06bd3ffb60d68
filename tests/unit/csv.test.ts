import { describe, expect, it } from 'vitest';
import { csvCell, csvDocument } from '~/lib/csv';

describe('CSV export cells', () => {
  it.each([
    ['=HYPERLINK("http://evil.example","x")', `"'=HYPERLINK(""http://evil.example"",""x"")"`],
    ['+33 6 00 00 00 00', `"'+33 6 00 00 00 00"`],
    ['-2+3', `"'-2+3"`],
    ['@SUM(A1:A2)', `"'@SUM(A1:A2)"`],
    ['\t=1+1', `"'\t=1+1"`],
    ['\r=1+1', `"'\r=1+1"`],
  ])('neutralises a cell starting with a formula character: %j', (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  it('leaves ordinary text as it is, quoted, with inner quotes doubled', () => {
    expect(csvCell('Awa « Diallo » = 20 €')).toBe('"Awa « Diallo » = 20 €"');
    expect(csvCell('Dit "merci"')).toBe('"Dit ""merci"""');
    expect(csvCell('a;b\r\nc')).toBe('"a;b\r\nc"');
    expect(csvCell(' =1')).toBe('" =1"');
  });

  it('writes numbers and empty values', () => {
    expect(csvCell(12.5)).toBe('"12.5"');
    expect(csvCell(-3)).toBe(`"'-3"`);
    expect(csvCell(0)).toBe('"0"');
    expect(csvCell(null)).toBe('""');
    expect(csvCell(undefined)).toBe('""');
    expect(csvCell('')).toBe('""');
  });

  it('makes a file with a byte-order mark, ; separators and CRLF line ends', () => {
    expect(csvDocument(['Nom', 'Montant'], [['=cmd', '20.00'], [null, '5']])).toBe('\uFEFF"Nom";"Montant"\r\n"\'=cmd";"20.00"\r\n"";"5"\r\n');
    expect(csvDocument(['Nom'], [])).toBe('\uFEFF"Nom"\r\n');
  });
});
