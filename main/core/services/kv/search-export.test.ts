// The Search tab's exports against the real local stack: main runs the query again and pages by OFFSET
// through every matching document (each once), writes JSON (`{key, score, data}`) or CSV (key, score, a
// column per field, RFC 4180 quoting) through the saver, stops at what the service can page (OFFSET at
// most 10,000, LIMIT at most 1000) and says so; an aggregation's result as JSON.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SEARCH_EXPORT_MAX } from '../../../../shared/kv/search';
import { KvClient } from './client';
import { kvProfile, useKvHandlers, useKvStack } from './kv-test-stack';
import { searchCsv } from './search';

const env = useKvStack();
const { callKv } = useKvHandlers(env, 'kv-search-export-');
const kv = () => new KvClient(kvProfile(env.kv));

/** `count` hashes `<prefix><n>` with a number and a text, and an index on them. */
async function seedMany(index: string, prefix: string, count: number): Promise<void> {
  const client = kv();
  await client.call(['SEARCH.DROP', index]);
  await client.call([
    'SEARCH.CREATE',
    index,
    'ON',
    'HASH',
    'PREFIX',
    '1',
    prefix,
    'SCHEMA',
    'n',
    'U64',
    'FAST',
    'label',
    'TEXT',
  ]);
  for (let start = 0; start < count; start += 1000) {
    const batch: string[][] = [];
    for (let n = start; n < Math.min(count, start + 1000); n++)
      batch.push(['HSET', `${prefix}${n}`, 'n', String(n), 'label', `item ${n}`]);
    await client.pipelineEntries(batch);
  }
  await client.call(['SEARCH.WAITINDEXING', index]);
}

const exportOf = (input: object) => callKv('kv.search.export', { profileId: 'p', ...input });

function saved(result: Awaited<ReturnType<typeof exportOf>>) {
  if ('canceled' in result) throw new Error('canceled');
  return { ...result, text: readFileSync(result.path, 'utf8') };
}

describe('kv.search.export against the local stack', () => {
  it('pages through more than one page: every document once, as JSON', async () => {
    await seedMany('st-export', 'st-export:', 2345);
    const result = saved(
      await exportOf({ index: 'st-export', filter: '{"n": {"$gte": 0}}', format: 'json' }),
    );
    expect(result).toMatchObject({ documents: 2345, count: 2345, capped: false });
    expect(result.path).toMatch(/kv-search-st-export-.*\.json$/);
    const documents = JSON.parse(result.text) as {
      key: string;
      score: number;
      data: Record<string, unknown>;
    }[];
    expect(documents).toHaveLength(2345);
    expect(new Set(documents.map((d) => d.key)).size).toBe(2345);
    const keys = new Set(documents.map((d) => d.key));
    for (let n = 0; n < 2345; n++) expect(keys.has(`st-export:${n}`)).toBe(true);
    const one = documents.find((d) => d.key === 'st-export:7')!;
    expect(one).toEqual({ key: 'st-export:7', score: expect.any(Number), data: { n: '7', label: 'item 7' } });
    expect(result.bytes).toBe(Buffer.byteLength(result.text));
  }, 60_000);

  it('keeps the query’s order and fields: ORDERBY across pages, SELECT as the CSV’s columns', async () => {
    const result = saved(
      await exportOf({
        index: 'st-export',
        filter: '{"n": {"$lt": 1500}}',
        orderBy: { field: 'n', direction: 'desc' },
        select: ['n'],
        format: 'csv',
      }),
    );
    const lines = result.text.split('\r\n');
    expect(lines[0]).toBe('key,score,n');
    expect(lines).toHaveLength(1 + 1500 + 1); // header, rows, the empty text after the last CRLF
    expect(lines[1]).toMatch(/^st-export:1499,[^,]*,1499$/);
    expect(lines[1500]).toMatch(/^st-export:0,[^,]*,0$/);
  });

  it('stops at what the service can page, and says how many matched', async () => {
    const total = SEARCH_EXPORT_MAX + 37;
    await seedMany('st-export-big', 'st-big:', total);
    const result = saved(
      await exportOf({ index: 'st-export-big', filter: '{"n": {"$gte": 0}}', keysOnly: true, format: 'csv' }),
    );
    expect(result).toMatchObject({ documents: SEARCH_EXPORT_MAX, count: total, capped: true });
    const rows = result.text.trimEnd().split('\r\n').slice(1);
    expect(rows).toHaveLength(SEARCH_EXPORT_MAX);
    expect(new Set(rows.map((row) => row.split(',')[0])).size).toBe(SEARCH_EXPORT_MAX);
    await kv().call(['SEARCH.DROP', 'st-export-big']);
  }, 120_000);

  it('CSV: quotes commas, quotes and line breaks; nested JSON members dotted; JSON keeps them nested', async () => {
    const client = kv();
    await client.call(['SEARCH.DROP', 'st-export-docs']);
    await client.call([
      'SEARCH.CREATE',
      'st-export-docs',
      'ON',
      'JSON',
      'PREFIX',
      '1',
      'st-xdoc:',
      'SCHEMA',
      'title',
      'TEXT',
      'meta.year',
      'U64',
      'FAST',
    ]);
    await client.call([
      'JSON.SET',
      'st-xdoc:1',
      '$',
      JSON.stringify({ title: 'Say "hi", then\nleave', meta: { year: 1965, tags: ['a', 'b'] } }),
    ]);
    // A document a spreadsheet would run: its cell is written as text in the CSV, as it is in the JSON.
    await client.call([
      'JSON.SET',
      'st-xdoc:2',
      '$',
      JSON.stringify({ title: '=HYPERLINK("http://x")', meta: { year: 1800 } }),
    ]);
    await client.call(['SEARCH.WAITINDEXING', 'st-export-docs']);
    const csv = saved(
      await exportOf({ index: 'st-export-docs', filter: '{"meta.year": {"$gte": 1900}}', format: 'csv' }),
    );
    const [head, ...rest] = csv.text.split('\r\n');
    expect(head!.split(',').slice(0, 2)).toEqual(['key', 'score']);
    expect(head).toContain('meta.year');
    expect(csv.text).toContain('"Say ""hi"", then\nleave"');
    expect(csv.text).toContain('"[""a"",""b""]"');
    expect(rest.join('\r\n')).toMatch(/^st-xdoc:1,/);
    expect(csv.text).not.toContain('HYPERLINK');
    const formulas = saved(
      await exportOf({ index: 'st-export-docs', filter: '{"meta.year": {"$lt": 1900}}', format: 'csv' }),
    );
    expect(formulas.text).toContain('"\'=HYPERLINK(""http://x"")"');
    expect(formulas.text).toMatch(/^key,score,title,meta\.year\r\nst-xdoc:2,[\d.]+,"'=HYPERLINK/);
    const json = saved(
      await exportOf({ index: 'st-export-docs', filter: '{"meta.year": {"$gte": 1900}}', format: 'json' }),
    );
    expect(JSON.parse(json.text)).toEqual([
      {
        key: 'st-xdoc:1',
        score: expect.any(Number),
        data: { title: 'Say "hi", then\nleave', meta: { year: 1965, tags: ['a', 'b'] } },
      },
    ]);
  });

  it('a missing index is said before anything is written; a name main would not write is refused', async () => {
    await expect(exportOf({ index: 'st-no-such', filter: '{}', format: 'json' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(
      exportOf({ index: 'st-export', filter: '{}', format: 'json', suggestedName: '../x.json' }),
    ).rejects.toThrow();
  });

  it('exports an aggregation’s result as JSON', async () => {
    const result = await callKv('kv.search.aggregate.export', {
      profileId: 'p',
      index: 'st-export',
      filter: '{"n": {"$lt": 10}}',
      aggregations: '{"total": {"$sum": {"field": "n"}}}',
    });
    if ('canceled' in result) throw new Error('canceled');
    expect(JSON.parse(readFileSync(result.path, 'utf8'))).toEqual({ total: { value: 45 } });
  });
});

describe('searchCsv', () => {
  it('fills a field a document lacks with nothing, and writes non-text values as JSON', () => {
    expect(
      searchCsv([
        { key: 'a', score: 1, fields: [['x', 'one, two']], data: {} },
        {
          key: 'b',
          score: 0.5,
          fields: [
            ['y', true],
            ['x', null],
          ],
          data: {},
        },
      ]),
    ).toBe('key,score,x,y\r\na,1,"one, two",\r\nb,0.5,,true\r\n');
  });
});
