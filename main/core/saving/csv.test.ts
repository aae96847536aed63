// The exports' CSV: RFC 4180 quoting, and cells a spreadsheet would run as formulas written as text.
import { describe, expect, it } from 'vitest';
import { csvCell, csvText } from './csv';

describe('csvCell', () => {
  it('quotes commas, quotes and line breaks, doubling quotes', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
  });

  it('writes a cell that starts like a formula with a leading quote', () => {
    expect(csvCell('=1+2')).toBe("'=1+2");
    expect(csvCell('+cmd')).toBe("'+cmd");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\t=1')).toBe("'\t=1");
    expect(csvCell('\r=1')).toBe('"\'\r=1"');
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
  });

  it('leaves plain numbers, negative ones included, and formula characters later in the text', () => {
    for (const number of ['-5', '-1.25', '-1.5e3', '42', '0.5', '1E-7']) expect(csvCell(number)).toBe(number);
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell('- item')).toBe("'- item");
  });
});

describe('csvText', () => {
  it('joins records with CRLF and ends with one', () => {
    expect(
      csvText([
        ['key', 'score'],
        ['k:1', '-0.5'],
        ['=k', '1'],
      ]),
    ).toBe("key,score\r\nk:1,-0.5\r\n'=k,1\r\n");
  });
});
