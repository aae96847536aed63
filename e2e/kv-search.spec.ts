// The KV Search tab (Redis Search): Chromium → browser host → main's kv.search.* handlers → the local stack's
// SEARCH.* emulation over redis-server. An index and its documents are made the way an app would (straight at
// the KV REST API); the tab lists the indexes, picks one by name from the keyboard, shows its schema, runs a
// filter with its count and rows, loads more by OFFSET, opens a key in the key browser, and says what is
// wrong with a bad filter, a field the index lacks and an index that does not exist; it aggregates what a
// filter matches (buckets with nested values, stats) and shows a refused aggregation in the service's words;
// it exports every match (CSV, JSON) and an aggregation (JSON) into main's exports folder.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, go, test } from './fixtures';
import { seedSearchIndex } from './support/kv-api';
import { localStack } from './support/local-stack';

test('pick an index, see its schema, run a filter, load more, open a key', async ({ app }) => {
  test.setTimeout(120_000);
  const { kv } = await localStack(app);
  await seedSearchIndex(kv);
  await go(app, '#/kv/search');

  // Nothing picked yet: the database's indexes (SEARCH.LISTINDEXES), each with its data type and aliases.
  const listed = app.getByTestId('search-index-row');
  await expect(listed).toHaveCount(1);
  await expect(listed).toHaveText(/^products\s*HASH\s*shop$/);

  // Typed and opened from the keyboard: its own address, its definition.
  const index = app.getByLabel('Index', { exact: true });
  await index.fill('products');
  await index.press('Enter');
  await expect(app).toHaveURL(/#\/kv\/search\/products$/);
  const definition = app.getByTestId('search-definition');
  await expect(definition).toContainText('HASH');
  await expect(definition).toContainText('product:');
  await expect(definition).toContainText('english');
  const schema = app.getByTestId('search-schema');
  await expect(schema.getByRole('row')).toHaveCount(6);
  await expect(schema.getByRole('row', { name: /price F64 FAST/ })).toBeVisible();

  // The filter starts from the first TEXT field with $eq.
  const filter = app.getByLabel('Filter (JSON)');
  expect(JSON.parse(await filter.inputValue())).toEqual({ name: { $eq: 'word' } });

  // A filter over two categories, ordered by price, 8 a page: the count, then the rows page by page.
  await filter.fill('{"category": {"$in": ["furniture", "accessories"]}}');
  await app.getByLabel('Limit').fill('8');
  await app.getByLabel('Order by').selectOption('price');
  await app.getByRole('group', { name: 'Direction' }).getByRole('button', { name: 'Descending' }).click();
  await filter.press('Control+Enter');
  await expect(app.getByTestId('search-count')).toHaveText('20 documents match');
  const rows = app.getByTestId('search-row');
  await expect(rows).toHaveCount(8);
  await expect(rows.first()).toHaveAttribute('data-key', 'product:25');
  await expect(rows.nth(1)).toHaveAttribute('data-key', 'product:24');
  await expect(app.getByTestId('search-results').getByRole('columnheader')).toHaveText([
    'Key',
    'Sort: price',
    'name',
    'category',
    'price',
    'stock',
    'inStock',
  ]);
  await expect(rows.first()).toContainText('accessories');
  // Ordered by price, the service answers the price in the score's place: shown exactly, not rounded.
  await expect(rows.first().getByRole('cell').nth(1)).toHaveText('207.49');
  await expect(app.getByTestId('search-shown')).toHaveText('8 of 20 documents shown');
  await app.getByRole('button', { name: 'Load more' }).click();
  await expect(rows).toHaveCount(16);
  await app.getByRole('button', { name: 'Load more' }).click();
  await expect(rows).toHaveCount(20);
  await expect(app.getByTestId('search-shown')).toHaveText('20 of 20 documents shown');
  await expect(app.getByRole('button', { name: 'Load more' })).toHaveCount(0);
  // Every row once, in falling price.
  const keys = await rows.evaluateAll((trs) => trs.map((tr) => (tr as HTMLElement).dataset.key!));
  expect(new Set(keys).size).toBe(20);
  expect(keys.slice(0, 4)).toEqual(['product:25', 'product:24', 'product:23', 'product:22']);

  // A key opens in the key browser.
  await rows.nth(2).getByRole('link', { name: 'product:23' }).click();
  await expect(app).toHaveURL(/#\/kv\/keys\/product%3A23$/);
  await expect(app.getByTestId('key-detail')).toContainText('product:23');
  await expect(app.getByTestId('key-detail')).toContainText('Office Chair');
});

test('a bad filter, a field the index lacks and a missing index each say what is wrong', async ({ app }) => {
  test.setTimeout(120_000);
  const { kv } = await localStack(app);
  await seedSearchIndex(kv, 5);
  await go(app, '#/kv/search/products');
  const filter = app.getByLabel('Filter (JSON)');
  const run = app.getByRole('button', { name: 'Run', exact: true });
  await expect(filter).toBeVisible();

  // Not JSON: said while typing, where it breaks; nothing to run.
  await filter.fill('{"name": {"$eq": }');
  await expect(filter).toHaveAttribute('aria-invalid', 'true');
  await expect(app.getByRole('alert').filter({ hasText: 'Not valid JSON' })).toContainText(
    '(line 1, column 18)',
  );
  await expect(run).toBeDisabled();
  // An operator the grammar lacks, also before anything is sent.
  await filter.fill('{"name": {"$like": "lamp"}}');
  await expect(
    app.getByRole('alert').filter({ hasText: 'Unknown operator $like for field "name"' }),
  ).toBeVisible();
  await expect(run).toBeDisabled();

  // A field the schema lacks: pointed out, and the service's own refusal shown when run anyway.
  await filter.fill('{"colour": {"$eq": "red"}}');
  await expect(app.getByText('Not in this index’s schema: colour')).toBeVisible();
  await run.click();
  const refusal = app.getByRole('alert').filter({ hasText: 'The service refused the query:' });
  await expect(refusal).toContainText("unknown field 'colour'");
  // An operator the field's type does not take: the service says so, the tab stays usable.
  await filter.fill('{"price": {"$regex": "1.*"}}');
  await run.click();
  await expect(refusal).toContainText('$regex');
  await filter.fill('{"inStock": true}');
  await run.click();
  await expect(app.getByTestId('search-count')).toHaveText(/^\d+ documents? match/);
  await expect(refusal).toHaveCount(0);

  // An index that does not exist (typed, or an old link).
  await go(app, '#/kv/search/no-such-index');
  await expect(app.getByText('No index or alias named “no-such-index”.')).toBeVisible();
  await expect(filter).toHaveCount(0);
  // A name that cannot be one is refused in the field itself.
  const index = app.getByLabel('Index', { exact: true });
  await index.fill('two words');
  await index.press('Enter');
  await expect(app.getByRole('alert').filter({ hasText: 'an index name has no spaces' })).toBeVisible();
  await expect(app).toHaveURL(/#\/kv\/search\/no-such-index$/);
  // The alias works as the index does.
  await index.fill('shop');
  await index.press('Enter');
  await expect(app.getByTestId('search-definition')).toContainText('Nameproducts');
  await expect(app.getByTestId('search-definition')).toContainText('Aliasshop');
});

test('a JSON index: nested fields dotted in the schema and as columns', async ({ app }) => {
  test.setTimeout(120_000);
  const { kv } = await localStack(app);
  await kv.command(
    'SEARCH.CREATE',
    'books',
    'ON',
    'JSON',
    'PREFIX',
    1,
    'book:',
    'SCHEMA',
    'title',
    'TEXT',
    'meta.year',
    'U64',
    'FAST',
    'meta.genre',
    'KEYWORD',
  );
  await kv.command(
    'JSON.SET',
    'book:1',
    '$',
    JSON.stringify({ title: 'Dune', meta: { year: 1965, genre: 'sf' } }),
  );
  await kv.command(
    'JSON.SET',
    'book:2',
    '$',
    JSON.stringify({ title: 'Emma', meta: { year: 1815, genre: 'novel' } }),
  );
  await kv.command('SEARCH.WAITINDEXING', 'books');
  await go(app, '#/kv/search/books');
  await expect(app.getByTestId('search-definition')).toContainText('JSON');
  await expect(
    app.getByTestId('search-schema').getByRole('row', { name: /meta\.year U64 FAST/ }),
  ).toBeVisible();
  await app.getByLabel('Filter (JSON)').fill('{"meta.year": {"$gte": 1900}}');
  await app.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(app.getByTestId('search-count')).toHaveText('1 document matches');
  await expect(app.getByTestId('search-results').getByRole('columnheader')).toHaveText([
    'Key',
    'Score',
    'title',
    'meta.year',
    'meta.genre',
  ]);
  await expect(app.getByTestId('search-row')).toHaveText([/book:1.*Dune.*1965.*sf/]);
});

test('the picker lists the indexes made through the stack, with their data types and aliases', async ({
  app,
}) => {
  test.setTimeout(120_000);
  const { kv } = await localStack(app);
  await go(app, '#/kv/search');
  await expect(app.getByRole('heading', { name: 'No search indexes yet' })).toBeVisible();

  await seedSearchIndex(kv, 5);
  await kv.command('SEARCH.CREATE', 'books', 'ON', 'JSON', 'PREFIX', 1, 'book:', 'SCHEMA', 'title', 'TEXT');
  await kv.command('SEARCH.CREATE', 'notes', 'ON', 'STRING', 'PREFIX', 1, 'note:', 'SCHEMA', 'text', 'TEXT');
  await kv.command('SEARCH.ALIASADD', 'library', 'books');
  await app.reload();
  const table = app.getByRole('table', { name: 'Search indexes' });
  await expect(table.getByRole('row')).toHaveText([
    /Name\s*Data type\s*Aliases/,
    /^books\s*JSON\s*library$/,
    /^notes\s*STRING\s*$/,
    /^products\s*HASH\s*shop$/,
  ]);
  await expect(app.getByTestId('search-index-count')).toHaveText('3 indexes');
  // The index field offers the same names.
  const options = app.locator('datalist option');
  await expect(options).toHaveCount(5);
  expect(
    await options.evaluateAll((all) => all.map((o) => `${(o as HTMLOptionElement).value}: ${o.textContent}`)),
  ).toEqual([
    'books: JSON index',
    'notes: STRING index',
    'products: HASH index',
    'library: alias of books',
    'shop: alias of products',
  ]);
  // An alias opens as its index; a name opens its own address.
  await table.getByRole('link', { name: 'library (alias of books)' }).click();
  await expect(app).toHaveURL(/#\/kv\/search\/library$/);
  await expect(app.getByTestId('search-definition')).toContainText('Namebooks');
  await go(app, '#/kv/search');
  await table.getByRole('link', { name: 'notes', exact: true }).click();
  await expect(app).toHaveURL(/#\/kv\/search\/notes$/);
  await expect(app.getByTestId('search-definition')).toContainText('STRING');
});

test('aggregate what a filter matches: buckets with nested values, stats, and a refusal', async ({ app }) => {
  test.setTimeout(120_000);
  const { kv } = await localStack(app);
  await seedSearchIndex(kv);
  await go(app, '#/kv/search/products');
  await app.getByRole('group', { name: 'Mode' }).getByRole('button', { name: 'Aggregate' }).click();
  const aggregations = app.getByLabel('Aggregations (JSON)');
  // An example from the schema: $terms on the KEYWORD field, the FAST price averaged in each bucket.
  expect(JSON.parse(await aggregations.inputValue())).toEqual({
    by_category: {
      $terms: { field: 'category', size: 10 },
      $aggs: { avg_price: { $avg: { field: 'price' } } },
    },
  });
  const filter = app.getByLabel('Filter (JSON)');
  await filter.fill('{"price": {"$lt": 100}}');
  await aggregations.fill(
    JSON.stringify({
      by_category: { $terms: { field: 'category' }, $aggs: { avg_price: { $avg: { field: 'price' } } } },
      price: { $stats: { field: 'price' } },
    }),
  );
  await aggregations.press('Control+Enter');
  // Products 1–10 cost under 100: 4 furniture, 4 accessories, 2 lighting.
  const buckets = app
    .getByTestId('search-aggregation')
    .filter({ has: app.getByRole('heading', { name: 'by_category' }) })
    .getByRole('table');
  await expect(buckets.getByRole('columnheader')).toHaveText(['Key', 'docCount', 'avg_price']);
  await expect(app.getByTestId('search-bucket')).toHaveCount(3);
  await expect(buckets.getByRole('row', { name: /^lighting/ })).toHaveText(/^lighting\s*2\s*46\.24$/);
  await expect(app.getByText('sumOtherDocCount: 0')).toBeVisible();
  const stats = app.getByRole('table', { name: 'price' });
  await expect(stats.getByRole('row', { name: /^count/ })).toHaveText(/^count\s*10$/);
  await expect(stats.getByRole('row', { name: /^min/ })).toHaveText(/^min\s*27\.49$/);

  // Checked as it is typed: nothing to run.
  const run = app.getByRole('button', { name: 'Run', exact: true });
  await aggregations.fill('{"x": {"$mean": {"field": "price"}}}');
  await expect(aggregations).toHaveAttribute('aria-invalid', 'true');
  await expect(app.getByRole('alert').filter({ hasText: 'Unknown operator $mean' })).toBeVisible();
  await expect(run).toBeDisabled();
  // A field the schema lacks: pointed out, and the service's refusal shown in its own words.
  await aggregations.fill('{"x": {"$avg": {"field": "weight"}}}');
  await expect(app.getByText('Not in this index’s schema: weight')).toBeVisible();
  await run.click();
  const refusal = app.getByRole('alert').filter({ hasText: 'The service refused the aggregation:' });
  await expect(refusal).toContainText('weight');
  // Back to the query: its own results, the aggregation's text kept.
  await app.getByRole('group', { name: 'Mode' }).getByRole('button', { name: 'Documents' }).click();
  await expect(app.getByLabel('Aggregations (JSON)')).toHaveCount(0);
  await expect(refusal).toHaveCount(0);
  await app.getByRole('group', { name: 'Mode' }).getByRole('button', { name: 'Aggregate' }).click();
  await expect(aggregations).toHaveValue('{"x": {"$avg": {"field": "weight"}}}');
});

test('export every match as CSV and JSON, and an aggregation as JSON: main writes the files', async ({
  app,
  consoleHost,
}) => {
  test.setTimeout(120_000);
  const exportsDir = join(consoleHost.dataDir, 'exports');
  const { kv } = await localStack(app);
  await seedSearchIndex(kv);
  await go(app, '#/kv/search/products');
  // 20 match, 8 shown: the export still has all 20 (main pages through them itself), in the query's order.
  await app.getByLabel('Filter (JSON)').fill('{"category": {"$in": ["furniture", "accessories"]}}');
  await app.getByLabel('Limit').fill('8');
  await app.getByLabel('Order by').selectOption('price');
  await app.getByRole('group', { name: 'Direction' }).getByRole('button', { name: 'Descending' }).click();
  await app.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(app.getByTestId('search-row')).toHaveCount(8);

  await app.getByLabel('Export file name').fill('products.csv');
  await app.getByRole('button', { name: 'Export 20 documents' }).click();
  const csvPath = join(exportsDir, 'products.csv');
  await expect(app.getByTestId('search-export-result')).toHaveText(`Saved 20 documents to ${csvPath}`);
  const lines = readFileSync(csvPath, 'utf8').split('\r\n');
  expect(lines[0]).toBe('key,score,name,category,price,stock,inStock');
  expect(lines).toHaveLength(22);
  expect(lines[1]).toMatch(/^product:25,[^,]*,Laptop Stand Mini 25,accessories,207\.49,/);
  const csvKeys = lines.slice(1, 21).map((line) => line.split(',')[0]);
  expect(new Set(csvKeys).size).toBe(20);

  // JSON under main's own name: an array of {key, score, data}.
  await app.getByLabel('Export file name').fill('');
  await app.getByRole('group', { name: 'Export format' }).getByRole('button', { name: 'JSON' }).click();
  await app.getByRole('button', { name: 'Export 20 documents' }).click();
  const result = app.getByTestId('search-export-result');
  await expect(result).toHaveText(/^Saved 20 documents to .*\/exports\/kv-search-products-.*\.json$/);
  const jsonPath = (await result.locator('code').textContent())!;
  const documents = JSON.parse(readFileSync(jsonPath, 'utf8')) as {
    key: string;
    score: number;
    data: Record<string, string>;
  }[];
  expect(documents.map((d) => d.key)).toEqual(csvKeys);
  expect(documents[0]!.data).toMatchObject({ name: 'Laptop Stand Mini 25', category: 'accessories' });

  // An aggregation's result as JSON.
  await app.getByRole('group', { name: 'Mode' }).getByRole('button', { name: 'Aggregate' }).click();
  await app.getByLabel('Filter (JSON)').fill('{"price": {"$lt": 100}}');
  await app.getByLabel('Aggregations (JSON)').fill('{"price": {"$stats": {"field": "price"}}}');
  await app.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(app.getByRole('table', { name: 'price' })).toBeVisible();
  await app.getByLabel('Export file name').fill('price.json');
  await app.getByRole('button', { name: 'Export as JSON' }).click();
  const aggregatePath = join(exportsDir, 'price.json');
  await expect(app.getByTestId('search-export-result')).toHaveText(`Saved to ${aggregatePath}`);
  expect(JSON.parse(readFileSync(aggregatePath, 'utf8'))).toMatchObject({ price: { count: 10, min: 27.49 } });
});
