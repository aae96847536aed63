// Test data for the KV screens, written the way an app would: straight at the local stack's KV REST API
// with the well-known local tokens the stack serves (local-stack.ts finds the URL).
import { Redis } from '@upstash/redis';

export const LOCAL_KV_TOKEN = 'switchyard-local-kv-token';
export const LOCAL_KV_READ_ONLY_TOKEN = 'switchyard-local-kv-readonly-token';

export interface KvApi {
  url: string;
  /** One command; answers `result` or throws with the server's error. */
  command(...args: (string | number)[]): Promise<unknown>;
  /** Rows as one /pipeline request (split into requests of 1,000 rows). */
  pipeline(rows: (string | number)[][]): Promise<void>;
  /** The vendor's own client (@upstash/redis) with the standard token: traffic from "another app". */
  redis(): Redis;
}

/** A client of the KV REST API at `url`. */
export function kvApi(url: string): KvApi {
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${LOCAL_KV_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as unknown;
    if (!response.ok) throw new Error(`KV ${path} failed: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  return {
    url,
    async command(...args) {
      return ((await post('/', args.map(String))) as { result: unknown }).result;
    },
    async pipeline(rows) {
      for (let i = 0; i < rows.length; i += 1000) {
        await post(
          '/pipeline',
          rows.slice(i, i + 1000).map((row) => row.map(String)),
        );
      }
    },
    redis: () =>
      new Redis({ url, token: LOCAL_KV_TOKEN, enableTelemetry: false, enableAutoPipelining: false }),
  };
}

/** A small keyspace with every type, for the screens and their screenshots. */
export async function seedSampleKeys(kv: KvApi): Promise<void> {
  await kv.pipeline([
    ['SET', 'user:1:name', 'Ada Lovelace'],
    ['SET', 'user:1:profile', JSON.stringify({ id: 1, name: 'Ada', roles: ['admin', 'ops'], active: true })],
    ['EXPIRE', 'user:1:profile', 3600],
    ['SET', 'user:2:name', 'Grace Hopper'],
    ['HSET', 'user:2:settings', 'theme', 'dark', 'lang', 'en', 'tz', 'Europe/Berlin'],
    ['RPUSH', 'queue:emails', 'welcome:1', 'reset:2', 'digest:3'],
    ['SADD', 'tags:popular', 'redis', 'http', 'serverless'],
    ['ZADD', 'leaderboard', 120, 'ada', 95, 'grace', 310, 'linus'],
    ['XADD', 'events:orders', '*', 'order', '1001', 'status', 'paid'],
    ['XADD', 'events:orders', '*', 'order', '1002', 'status', 'shipped'],
    ['SET', 'session:abc', 'token-data'],
    ['EXPIRE', 'session:abc', 600],
    ['SET', 'counter:visits', 42],
  ]);
}

/** The documents of `seedSearchIndex`: a product catalogue, `count` hashes under `product:`. */
export const SEARCH_PRODUCTS = ['Desk Lamp', 'Standing Desk', 'Office Chair', 'Monitor Arm', 'Laptop Stand'];

/**
 * A Redis Search index `products` over hashes `product:1` … `product:<count>` (name TEXT, category KEYWORD,
 * price F64 FAST, stock U64, inStock BOOL) and an alias `shop` for it, created the way an app would.
 */
export async function seedSearchIndex(kv: KvApi, count = 25): Promise<void> {
  const categories = ['lighting', 'furniture', 'furniture', 'accessories', 'accessories'];
  const rows: (string | number)[][] = [];
  for (let i = 1; i <= count; i++) {
    const kind = (i - 1) % SEARCH_PRODUCTS.length;
    rows.push([
      'HSET',
      `product:${i}`,
      'name',
      `${SEARCH_PRODUCTS[kind]} ${['Mini', 'Pro', 'Max', 'Air', 'One'][i % 5]} ${i}`,
      'category',
      categories[kind]!,
      'price',
      (19.99 + i * 7.5).toFixed(2),
      'stock',
      (i * 13) % 40,
      'inStock',
      (i * 13) % 40 > 0 ? 'true' : 'false',
    ]);
  }
  await kv.pipeline(rows);
  await kv.command(
    'SEARCH.CREATE',
    'products',
    'ON',
    'HASH',
    'PREFIX',
    1,
    'product:',
    'LANGUAGE',
    'english',
    'SCHEMA',
    'name',
    'TEXT',
    'category',
    'KEYWORD',
    'price',
    'F64',
    'FAST',
    'stock',
    'U64',
    'inStock',
    'BOOL',
  );
  await kv.command('SEARCH.ALIASADD', 'shop', 'products');
  await kv.command('SEARCH.WAITINDEXING', 'products');
}
