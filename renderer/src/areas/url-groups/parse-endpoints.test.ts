import { describe, expect, it } from 'vitest';
import { parseEndpoints } from './parse-endpoints';

describe('pasted endpoints', () => {
  it('reads “name url”, “url name”, “name,url” and bare URLs, ignoring blanks and comments', () => {
    const parsed = parseEndpoints(
      [
        '# billing services',
        'invoices https://a.example.com/hook',
        '',
        'https://b.example.com/hook\treceipts',
        'ledger,http://127.0.0.1:3000/x',
        '  https://c.example.com/  ',
      ].join('\n'),
    );
    expect(parsed.invalid).toBe(0);
    expect(parsed.toSend).toEqual([
      { name: 'invoices', url: 'https://a.example.com/hook' },
      { name: 'receipts', url: 'https://b.example.com/hook' },
      { name: 'ledger', url: 'http://127.0.0.1:3000/x' },
      { url: 'https://c.example.com/' },
    ]);
    expect(parsed.lines.map((line) => line.line)).toEqual([2, 4, 5, 6]);
  });

  it('says what is wrong with each bad line', () => {
    const parsed = parseEndpoints(
      [
        'ftp://files.example.com',
        'just-a-name',
        'bad name! https://x.example.com',
        'https://x.example.com https://y.example.com',
        'a https://dup.example.com',
        'b https://dup.example.com',
        'a https://other.example.com',
      ].join('\n'),
    );
    expect(parsed.lines.map((line) => [line.line, line.status, line.note])).toEqual([
      [1, 'invalid', '“ftp://files.example.com” is not an http:// or https:// URL'],
      [2, 'invalid', 'no URL on this line (URLs start with http:// or https://)'],
      [3, 'invalid', 'expected “name url” or a URL'],
      [4, 'invalid', 'two URLs on one line'],
      [5, 'add', undefined],
      [6, 'invalid', 'same URL as line 5'],
      [7, 'invalid', 'same name as line 5'],
    ]);
    expect(parsed.toSend).toEqual([{ name: 'a', url: 'https://dup.example.com' }]);
  });

  it('compares with the group: existing URLs are unchanged or renamed, taken names are refused', () => {
    const existing = [
      { name: 'old', url: 'https://a.example.com' },
      { url: 'https://b.example.com' },
      { name: 'taken', url: 'https://c.example.com' },
    ];
    const parsed = parseEndpoints(
      [
        'old https://a.example.com',
        'new https://a.example.com',
        'https://b.example.com',
        'taken https://d.example.com',
      ].join('\n'),
      existing,
    );
    expect(parsed.lines.map((line) => line.status)).toEqual(['unchanged', 'invalid', 'unchanged', 'invalid']);
    expect(parsed.lines[1]!.note).toBe('same URL as line 1');
    expect(parsed.lines[3]!.note).toMatch(/already has an endpoint named “taken”/);
    const rename = parseEndpoints('renamed https://b.example.com', existing);
    expect(rename.lines[0]).toMatchObject({ status: 'rename', note: 'names an existing endpoint' });
    expect(rename.toSend).toEqual([{ name: 'renamed', url: 'https://b.example.com' }]);
  });
});
