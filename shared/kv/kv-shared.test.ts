import { describe, expect, it } from 'vitest';
import { bundledDoc, completeCommandName, isWriteCommand } from './commands';
import { dangerOf } from './danger';
import { KeyTree, mergeSortedKeys, sortedKeys } from './key-tree';
import { base64ToBytes, bytesToBase64, hexDump, parseResp2, resp2ToPlain } from './resp2';

describe('command table', () => {
  it('has docs with args containing alternatives, and completes names', () => {
    expect(bundledDoc('getex')?.args).toBe('key [EX seconds|PX ms|EXAT ts|PXAT ts|PERSIST]');
    // The hosted service's Redis 7.4 / 8.x commands are in the table too (HGETDEL, HGETEX…).
    expect(completeCommandName('hg').map((d) => d.name)).toEqual(['HGET', 'HGETEX', 'HGETALL', 'HGETDEL']);
    expect(bundledDoc('xackdel')?.args).toBe('key group [KEEPREF|DELREF|ACKED] IDS numids id [id …]');
    expect(completeCommandName('')).toEqual([]);
    // Upstash's search, emulated by the local stack.
    expect(completeCommandName('search.a').map((d) => d.name)).toEqual([
      'SEARCH.ALIASADD',
      'SEARCH.ALIASDEL',
      'SEARCH.AGGREGATE',
    ]);
    expect(completeCommandName('search.').map((d) => d.name)).toEqual([
      'SEARCH.DROP',
      'SEARCH.COUNT',
      'SEARCH.QUERY',
      'SEARCH.CREATE',
      'SEARCH.REINDEX',
      'SEARCH.ALIASADD',
      'SEARCH.ALIASDEL',
      'SEARCH.DESCRIBE',
      'SEARCH.AGGREGATE',
      'SEARCH.LISTALIASES',
      'SEARCH.LISTINDEXES',
      'SEARCH.WAITINDEXING',
    ]);
    expect(bundledDoc('search.count')?.args).toBe('index filter');
  });
  it.each([
    [['GET', 'k'], false],
    [['set', 'k', 'v'], true],
    [['CONFIG', 'GET', 'x'], false],
    [['CONFIG', 'SET', 'x', 'y'], true],
    [['SCRIPT', 'EXISTS', 'abc'], false],
    [['HTTL', 'k', 'FIELDS', '1', 'f'], false],
    [['HGETDEL', 'k', 'FIELDS', '1', 'f'], true],
    [['XDELEX', 'k', 'IDS', '1', '1-0'], true],
    [['SEARCH.QUERY', 'idx', '{}'], false],
    [['search.count', 'idx', '{}'], false],
    [['SEARCH.CREATE', 'idx', 'ON', 'HASH'], true],
    [['SEARCH.REINDEX', 'idx'], true],
    [['SEARCH.LISTINDEXES', 'MATCH', 'p*'], false],
    [['SEARCH.ALIASADD', 'a', 'idx'], true],
    [['SEARCH.DESCRIBE', 'idx'], false],
    [['SEARCH.WAITINDEXING', 'idx'], false],
    [['SEARCH.DROP', 'idx'], true],
    [['MADEUP'], true],
  ])('isWriteCommand(%j) = %s', (args, write) => {
    expect(isWriteCommand(args)).toBe(write);
  });
});

describe('dangerOf', () => {
  it.each([
    [['flushall'], true],
    [['FLUSHDB', 'ASYNC'], true],
    [['KEYS', '*'], true],
    [['DEL', 'a', 'b'], false],
    [['UNLINK', ...Array.from({ length: 11 }, (_, i) => `k${i}`)], true],
    [['CONFIG', 'SET', 'maxmemory', '1'], true],
    [['CONFIG', 'GET', 'maxmemory'], false],
    [['SCRIPT', 'FLUSH'], true],
    [['SHUTDOWN'], true],
    [['DEBUG', 'SLEEP', '1'], true],
    [['GET', 'k'], false],
    // Dropping an index keeps the documents' keys: one named thing, rebuilt by SEARCH.CREATE.
    [['SEARCH.DROP', 'products'], false],
    [['SWAPDB', '0', '1'], true],
    [['EVAL', "return redis.call('FLUSHDB')", '0'], true],
    [['eval', 'redis.pcall("flushall", "async")', '0'], true],
    [['EVAL', "return redis.call('GET', KEYS[1])", '1', 'k'], false],
    // A key that merely contains the word is not the command.
    [['EVAL', "return redis.call('GET', 'flushdb_count')", '0'], false],
  ])('%j dangerous: %s', (args, dangerous) => {
    expect(dangerOf(args) !== undefined).toBe(dangerous);
  });

  it('says which command a script calls', () => {
    expect(dangerOf(['EVAL', "return redis.call('FLUSHDB')", '0'])).toBe(
      'The script calls FLUSHDB: FLUSHDB deletes every key of the database.',
    );
  });
});

describe('resp2', () => {
  it('reads every reply type and keeps offsets', () => {
    const bytes = new TextEncoder().encode('+OK\r\n-ERR bad\r\n:42\r\n$-1\r\n*2\r\n$1\r\na\r\n*-1\r\n');
    const replies = parseResp2(bytes);
    expect(replies.map((r) => resp2ToPlain(r.value))).toEqual([
      'OK',
      { error: 'ERR bad' },
      42,
      null,
      ['a', null],
    ]);
    expect(replies[1]).toMatchObject({ start: 5, end: 15 });
    expect(() => parseResp2(new TextEncoder().encode('$5\r\nab\r\n'))).toThrow(/bulk/);
  });
  it('hex dumps and round-trips base64', () => {
    const bytes = new Uint8Array([0, 65, 255, 10]);
    expect(hexDump(bytes)[0]).toEqual({ offset: '00000000', hex: '00 41 ff 0a', ascii: '.A..' });
    expect(base64ToBytes(bytesToBase64(bytes))).toEqual(bytes);
  });
});

describe('KeyTree', () => {
  it('groups by delimiter with counts, ignores duplicates, and lists expanded folders', () => {
    const tree = new KeyTree(':');
    tree.add(['user:2:name', 'user:1:name', 'user:1:mail', 'solo', 'user:1:name']);
    tree.add(['order:9']);
    expect(tree.size).toBe(5);
    const top = tree.visibleRows(new Set());
    expect(top.map((r) => (r.kind === 'folder' ? `${r.folder.name}/${r.folder.count}` : r.key))).toEqual([
      'order/1',
      'user/3',
      'solo',
    ]);
    const open = tree.visibleRows(new Set(['user:', 'user:1:']));
    expect(open.map((r) => (r.kind === 'folder' ? r.folder.path : r.name))).toEqual([
      'order:',
      'user:',
      'user:1:',
      'mail',
      'name',
      'user:2:',
      'solo',
    ]);
    tree.remove('order:9');
    expect(tree.visibleRows(new Set()).map((r) => r.kind === 'folder' && r.folder.name)).not.toContain(
      'order',
    );
    expect(tree.root.count).toBe(4);
  });

  it('lists the flat view in the same byte order as the tree, each key once', () => {
    const arrival = ['bulk:21', 'leaderboard', 'bulk:154', 'Zeta', 'bulk:21', 'bulk:9', 'événement'];
    expect(sortedKeys(arrival)).toEqual([
      'Zeta',
      'bulk:154',
      'bulk:21',
      'bulk:9',
      'leaderboard',
      'événement',
    ]);
    const tree = new KeyTree('');
    tree.add(arrival);
    expect(tree.visibleRows(new Set()).map((r) => r.kind === 'key' && r.key)).toEqual(sortedKeys(arrival));
    // The arrival array itself is left as it came (the scan keeps appending to it).
    expect(arrival[0]).toBe('bulk:21');
  });

  it('merges batch after batch into the same order as sorting everything at once', () => {
    // A seeded shuffle of 3,000 keys with repeats (SCAN may return a key twice, across batches too).
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const arrival = Array.from({ length: 3000 }, () => `k:${Math.floor(random() * 2500)}`);
    let merged: string[] = [];
    for (let at = 0; at < arrival.length;) {
      const size = 1 + Math.floor(random() * 400);
      merged = mergeSortedKeys(merged, arrival.slice(at, at + size));
      at += size;
    }
    const whole = sortedKeys(arrival);
    expect(new Set(arrival).size).toBe(whole.length);
    expect(whole.length).toBeLessThan(arrival.length);
    expect(merged).toEqual(whole);
    expect(mergeSortedKeys(['a', 'c'], ['c', 'b', 'a', 'd'])).toEqual(['a', 'b', 'c', 'd']);
  });
});
