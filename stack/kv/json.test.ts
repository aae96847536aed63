// JSON.* through the bridge (issue 23): the replies the SDK expects, JSONPath and legacy paths, errors, key
// order, big numbers and unicode, TYPE / SCAN / WRONGTYPE, the read-only token, MONITOR, concurrent writers
// and a restart of redis-server.
import { Redis } from '@upstash/redis';
import { beforeAll, describe, expect, it } from 'vitest';

import type { CommandReply } from './test-support';
import {
  commandAs,
  eventually,
  monitorLinesOf,
  startTestService,
  tempDir,
  useTestService,
} from './test-support';

const env = useTestService();

/** One command as `POST /` (the SDK's form), answered `{result}` or `{error}` (any status). */
async function run(...args: (string | number)[]): Promise<CommandReply> {
  const res = await env.kv.call('/', { method: 'POST', body: JSON.stringify(args) });
  return (await res.json()) as CommandReply;
}

const runAs = (token: string, ...args: (string | number)[]): Promise<CommandReply> =>
  commandAs(env.kv, token, ...args);

const sdk = (): Redis => new Redis({ url: env.kv.url, token: env.kv.token, enableTelemetry: false });

describe('values', () => {
  it('keeps key order, number text and unicode exactly as written', async () => {
    const text =
      '{"z":1,"a":12345678901234567890,"m":1.10,"e":-2.5e-3,"u":"é😀\\u0000\\n\\"","n":null,"b":[true,false,{}]}';
    expect(await run('JSON.SET', 'v:order', '$', text)).toEqual({ result: 'OK' });
    const stored =
      '{"z":1,"a":12345678901234567890,"m":1.10,"e":-2.5e-3,"u":"é😀\\u0000\\n\\"","n":null,"b":[true,false,{}]}';
    expect(await run('JSON.GET', 'v:order')).toEqual({ result: stored });
    expect(await run('JSON.GET', 'v:order', '$')).toEqual({ result: `[${stored}]` });
    // Whitespace and escapes are normalized; a \u escape of a non-ASCII character is stored as the character.
    await run('JSON.SET', 'v:space', '$', ' { "b" : [ 1 , 2 ] ,\n "a" : "\\u00e9\\ud83d\\ude00" } ');
    expect(await run('JSON.GET', 'v:space')).toEqual({ result: '{"b":[1,2],"a":"é😀"}' });
  });

  it('round-trips documents through the SDK, key order included', async () => {
    const redis = sdk();
    const doc = { zeta: 1, alpha: { y: [1, 'two', null, { deep: true }], x: 'é' }, mid: -0.5 };
    expect(await redis.json.set('v:sdk', '$', doc)).toBe('OK');
    const back = await redis.json.get<typeof doc>('v:sdk');
    expect(back).toEqual(doc);
    expect(Object.keys(back!)).toEqual(['zeta', 'alpha', 'mid']);
    expect(await redis.json.get('v:sdk', '$.alpha.y[3].deep')).toEqual([true]);
  });

  it('answers pretty-printed text with INDENT, NEWLINE and SPACE', async () => {
    await run('JSON.SET', 'v:pretty', '$', '{"a":[1,{}],"b":{"c":null}}');
    expect((await run('JSON.GET', 'v:pretty', 'INDENT', '  ', 'NEWLINE', '\n', 'SPACE', ' ')).result).toBe(
      '{\n  "a": [\n    1,\n    {}\n  ],\n  "b": {\n    "c": null\n  }\n}',
    );
  });

  it('refuses invalid JSON with serde_json texts and writes nothing', async () => {
    expect(await run('JSON.SET', 'v:bad', '$', '{"a":tru}')).toEqual({
      error: 'ERR expected ident at line 1 column 6',
    });
    expect(await run('JSON.SET', 'v:bad', '$', '[1,2')).toEqual({
      error: 'ERR EOF while parsing a list at line 1 column 4',
    });
    expect(await run('JSON.SET', 'v:bad', '$', '{"a":1} x')).toEqual({
      error: 'ERR trailing characters at line 1 column 9',
    });
    expect(await run('JSON.SET', 'v:bad', '$', '{"a":1,}')).toEqual({
      error: 'ERR trailing comma at line 1 column 8',
    });
    expect(await run('JSON.SET', 'v:bad', '$', '01')).toEqual({
      error: 'ERR invalid number at line 1 column 2',
    });
    expect(await run('EXISTS', 'v:bad')).toEqual({ result: 0 });
  });
});

describe('paths', () => {
  const doc = { a: 2, b: 3, nested: { a: 4, b: null }, list: [10, 20, 30, 40], tags: ['x', 'y'] };
  beforeAll(async () => {
    await run('JSON.SET', 'p:doc', '$', JSON.stringify(doc));
  });

  it('answers JSONPath with arrays of matches, descendants before the nodes that hold them', async () => {
    const get = async (...paths: string[]): Promise<unknown> =>
      JSON.parse((await run('JSON.GET', 'p:doc', ...paths)).result as string);
    expect(await get('$..b')).toEqual([null, 3]);
    expect(await get('$..a')).toEqual([4, 2]);
    expect(await get('$.list[-1]')).toEqual([40]);
    expect(await get('$.list[1:3]')).toEqual([20, 30]);
    expect(await get('$.list[::2]')).toEqual([10, 30]);
    expect(await get('$.list[0,2]')).toEqual([10, 30]);
    expect(await get('$.list[?(@ > 15 && @ < 35)]')).toEqual([20, 30]);
    expect(await get("$.tags[?(@ =~ '^[x]$')]")).toEqual(['x']);
    expect(await get("$['nested']['a']")).toEqual([4]);
    expect(await get('$.nested.*')).toEqual([4, null]);
    expect(await get('$.missing')).toEqual([]);
    expect(await get('$..a', '$..b')).toEqual({ '$..a': [4, 2], '$..b': [null, 3] });
  });

  it('answers legacy paths with one value, and an error for a path that does not exist', async () => {
    expect(await run('JSON.GET', 'p:doc', '.nested.a')).toEqual({ result: '4' });
    expect(await run('JSON.GET', 'p:doc', 'list[1]')).toEqual({ result: '20' });
    expect(await run('JSON.GET', 'p:doc', '.missing')).toEqual({
      error: "ERR Path '$.missing' does not exist",
    });
    expect(JSON.parse((await run('JSON.GET', 'p:doc', '.a', '.b')).result as string)).toEqual({
      '.a': 2,
      '.b': 3,
    });
    expect(await run('JSON.TYPE', 'p:doc', '.nested')).toEqual({ result: 'object' });
    expect(await run('JSON.TYPE', 'p:doc', '$..a')).toEqual({ result: ['integer', 'integer'] });
    expect(await run('JSON.STRLEN', 'p:doc', '.a')).toEqual({
      error: 'WRONGTYPE wrong type of path value - expected string but found integer',
    });
  });

  it('refuses a malformed path', async () => {
    expect((await run('JSON.GET', 'p:doc', '$.list[')).error).toMatch(/^ERR JSON Path error: path error: /);
  });
});

describe('writes', () => {
  it('creates documents only at the root, adds members, honours NX and XX', async () => {
    expect(await run('JSON.SET', 'w:new', '$.a', '1')).toEqual({
      error: 'ERR new objects must be created at the root',
    });
    expect(await run('JSON.SET', 'w:new', '$', '{"a":1}', 'XX')).toEqual({ result: null });
    expect(await run('JSON.SET', 'w:new', '$', '{"a":1}', 'NX')).toEqual({ result: 'OK' });
    expect(await run('JSON.SET', 'w:new', '$', '{}', 'NX')).toEqual({ result: null });
    expect(await run('JSON.SET', 'w:new', '$.b', '[]')).toEqual({ result: 'OK' });
    expect(await run('JSON.SET', 'w:new', '$.c.d', '1')).toEqual({ result: null });
    expect(await run('JSON.SET', 'w:new', '$.a', '2', 'XX')).toEqual({ result: 'OK' });
    expect(await run('JSON.GET', 'w:new')).toEqual({ result: '{"a":2,"b":[]}' });
  });

  it('edits arrays, strings, numbers and booleans with the replies the SDK expects', async () => {
    const redis = sdk();
    await redis.json.set('w:edit', '$', {
      list: [1, 2, 3],
      s: 'ab',
      n: 1,
      f: 1.5,
      ok: true,
      o: { x: 1, y: 2 },
    });
    expect(await redis.json.arrappend('w:edit', '$.list', 4, '"five"')).toEqual([5]);
    expect(await redis.json.arrinsert('w:edit', '$.list', 0, 0)).toEqual([6]);
    expect(await redis.json.arrindex('w:edit', '$.list', '"five"')).toEqual([5]);
    expect(await redis.json.arrpop('w:edit', '$.list')).toEqual(['five']);
    expect(await redis.json.arrtrim('w:edit', '$.list', 1, 2)).toEqual([2]);
    expect(await redis.json.arrlen('w:edit', '$.list')).toEqual([2]);
    expect(await redis.json.strappend('w:edit', '$.s', '"cd"')).toEqual([4]);
    expect(await redis.json.numincrby('w:edit', '$.n', 41)).toEqual([42]);
    expect(await redis.json.numincrby('w:edit', '$.f', 0.25)).toEqual([1.75]);
    expect(await redis.json.nummultby('w:edit', '$.n', 2)).toEqual([84]);
    expect(await redis.json.toggle('w:edit', '$.ok')).toEqual([0]);
    expect(await redis.json.objkeys('w:edit', '$.o')).toEqual([['x', 'y']]);
    expect(await redis.json.objlen('w:edit', '$.o')).toEqual([2]);
    expect(await redis.json.merge('w:edit', '$.o', { x: null, z: 3 })).toBe('OK');
    expect(await redis.json.clear('w:edit', '$.list')).toBe(1);
    expect(await redis.json.del('w:edit', '$.f')).toBe(1);
    expect(await redis.json.get('w:edit')).toEqual({
      list: [],
      s: 'abcd',
      n: 84,
      ok: false,
      o: { y: 2, z: 3 },
    });
    expect(await redis.json.type('w:edit', '$.s')).toEqual(['string']);
    expect(await redis.json.resp('w:edit', '$.o')).toEqual([['{', 'y', 2, 'z', 3]]);
    expect(
      await redis.json.mset(
        { key: 'w:m1', path: '$', value: { a: 1 } },
        { key: 'w:edit', path: '$.n', value: 0 as unknown as Record<string, unknown> },
      ),
    ).toBe('OK');
    expect(await redis.json.mget(['w:m1', 'w:edit', 'w:none'], '$.n')).toEqual([[], [0], null]);
    expect(await redis.json.del('w:edit')).toBe(1);
    expect(await redis.exists('w:edit')).toBe(0);
  });

  it('keeps integer arithmetic exact and prints floats as RedisJSON does', async () => {
    await run('JSON.SET', 'w:num', '$', '{"i":9007199254740000,"f":0.1}');
    expect(await run('JSON.NUMINCRBY', 'w:num', '$.i', '991')).toEqual({ result: '[9007199254740991]' });
    expect(await run('JSON.NUMINCRBY', 'w:num', '$.f', '0.2')).toEqual({ result: '[0.30000000000000004]' });
    expect(await run('JSON.NUMMULTBY', 'w:num', '.f', '1e30')).toEqual({ result: '3.0000000000000006e29' });
    expect(await run('JSON.NUMINCRBY', 'w:num', '$.i', '"x"')).toEqual({
      error: 'ERR expected a number but found string',
    });
  });

  it('is refused on a key that does not exist where RedisJSON refuses it', async () => {
    expect(await run('JSON.ARRAPPEND', 'w:none', '$', '1')).toEqual({
      error: "ERR could not perform this operation on a key that doesn't exist",
    });
    expect(await run('JSON.GET', 'w:none')).toEqual({ result: null });
    expect(await run('JSON.DEL', 'w:none')).toEqual({ result: 0 });
  });
});

describe('JSON keys among the others', () => {
  it('TYPE and SCAN report ReJSON-RL; string and JSON commands meet WRONGTYPE', async () => {
    await run('JSON.SET', 't:json', '$', '{"a":1}');
    await run('SET', 't:string', 'x');
    await run('HSET', 't:hash', 'f', 'v');
    expect(await run('TYPE', 't:json')).toEqual({ result: 'ReJSON-RL' });
    expect(await run('TYPE', 't:hash')).toEqual({ result: 'hash' });
    expect(await env.kv.json('/type/t:json')).toEqual({ status: 200, body: { result: 'ReJSON-RL' } });
    for (const command of [
      ['GET', 't:json'],
      ['INCR', 't:json'],
      ['APPEND', 't:json', 'x'],
      ['STRLEN', 't:json'],
    ]) {
      expect(await run(...command), command[0]).toEqual({
        error: 'WRONGTYPE Operation against a key holding the wrong kind of value',
      });
    }
    for (const key of ['t:string', 't:hash']) {
      expect(await run('JSON.GET', key)).toEqual({
        error: 'WRONGTYPE Operation against a key holding the wrong kind of value',
      });
    }
    const scanAll = async (...options: string[]): Promise<unknown[]> => {
      const seen: unknown[] = [];
      let cursor = '0';
      do {
        const r = (await run('SCAN', cursor, 'MATCH', 't:*', 'COUNT', '1000', ...options)).result as [
          string,
          unknown[],
        ];
        cursor = r[0];
        seen.push(...r[1]);
      } while (cursor !== '0');
      return seen;
    };
    expect(await scanAll('TYPE', 'ReJSON-RL')).toEqual(['t:json']);
    expect(await scanAll('TYPE', 'rejson-rl')).toEqual(['t:json']);
    expect(await scanAll('TYPE', 'hash')).toEqual(['t:hash']);
    const withType = await scanAll('WITHTYPE');
    const pairs = new Map<unknown, unknown>();
    for (let i = 0; i < withType.length; i += 2) pairs.set(withType[i], withType[i + 1]);
    expect(pairs).toEqual(
      new Map([
        ['t:json', 'ReJSON-RL'],
        ['t:string', 'string'],
        ['t:hash', 'hash'],
      ]),
    );
    expect(await scanAll('TYPE', 'ReJSON-RL', 'WITHTYPE')).toEqual(['t:json', 'ReJSON-RL']);
    const redis = sdk();
    expect(await redis.type('t:json')).toBe('ReJSON-RL');
  });

  it('answers an unknown JSON command and too few arguments like Redis', async () => {
    expect((await run('JSON.NOPE', 'k')).error).toBe(
      "ERR unknown command 'JSON.NOPE', with args beginning with: 'k' ",
    );
    expect(await run('JSON.GET')).toEqual({ error: "ERR wrong number of arguments for 'json.get' command" });
  });

  it('works in pipelines, transactions, base64 and RESP2 replies', async () => {
    const pipeline = await env.kv.json('/pipeline', {
      method: 'POST',
      body: JSON.stringify([
        ['JSON.SET', 'f:p', '$', '{"a":[1]}'],
        ['JSON.ARRAPPEND', 'f:p', '$.a', '2'],
        ['JSON.GET', 'f:p', '$.a'],
        ['GET', 'f:p'],
      ]),
    });
    expect(pipeline.body).toEqual([
      { result: 'OK' },
      { result: [2] },
      { result: '[[1,2]]' },
      { error: 'WRONGTYPE Operation against a key holding the wrong kind of value' },
    ]);
    const tx = await env.kv.json('/multi-exec', {
      method: 'POST',
      body: JSON.stringify([
        ['JSON.NUMINCRBY', 'f:p', '$.a[0]', '5'],
        ['JSON.GET', 'f:p'],
      ]),
    });
    expect(tx.body).toEqual([{ result: '[6]' }, { result: '{"a":[6,2]}' }]);
    const base64 = await env.kv.json('/json.get/f:p', { headers: { 'upstash-encoding': 'base64' } });
    expect(Buffer.from((base64.body as { result: string }).result, 'base64').toString()).toBe('{"a":[6,2]}');
    const resp2 = await env.kv.call('/type/f:p', { headers: { 'upstash-response-format': 'resp2' } });
    expect(await resp2.text()).toBe('+ReJSON-RL\r\n');
  });
});

describe('the read-only token', () => {
  it('may read JSON documents and is refused every JSON write, by Redis', async () => {
    await run('JSON.SET', 'ro:doc', '$', '{"a":[1,2],"s":"x"}');
    const ro = env.kv.readOnlyToken;
    expect(await runAs(ro, 'JSON.GET', 'ro:doc', '$.a')).toEqual({ result: '[[1,2]]' });
    expect(await runAs(ro, 'JSON.ARRLEN', 'ro:doc', '$.a')).toEqual({ result: [2] });
    expect(await runAs(ro, 'TYPE', 'ro:doc')).toEqual({ result: 'ReJSON-RL' });
    for (const write of [
      ['JSON.SET', 'ro:doc', '$.a', '1'],
      ['JSON.DEL', 'ro:doc'],
      ['JSON.ARRAPPEND', 'ro:doc', '$.a', '3'],
      ['JSON.MSET', 'ro:doc', '$', '{}'],
    ]) {
      expect(await runAs(ro, ...write)).toEqual({
        error: `NOPERM this user has no permissions to run the '${write[0]!.toLowerCase()}' command`,
      });
    }
    // Nor through the script directly, read-only as it is for this user.
    const sha = ((await run('SCRIPT', 'LOAD', 'return 1')).result as string).length;
    expect(sha).toBe(40);
    const direct = await runAs(ro, 'SCAN', '0', 'TYPE', 'ReJSON-RL');
    expect(direct.error).toBe("NOPERM this user has no permissions to run the 'scan' command");
    expect(await run('JSON.GET', 'ro:doc')).toEqual({ result: '{"a":[1,2],"s":"x"}' });
  });
});

describe('MONITOR', () => {
  it('shows the JSON command the client sent, not the script, and names the REST caller', async () => {
    const lines = await monitorLinesOf(env.kv, 'mon:', 'mon:end', async () => {
      await run('JSON.SET', 'mon:doc', '$', '{"a": 1}');
      await run('JSON.GET', 'mon:doc', '$.a');
      await run('TYPE', 'mon:doc');
      await runAs(env.kv.readOnlyToken, 'GET', 'mon:read-only');
      await run('GET', 'mon:end');
    });
    expect(lines).toEqual([
      // Each REST caller as the monitor names it: its IP and the token's user.
      '[0 127.0.0.1 default] "JSON.SET" "mon:doc" "$" "{\\"a\\": 1}"',
      '[0 127.0.0.1 default] "JSON.GET" "mon:doc" "$.a"',
      '[0 127.0.0.1 default] "TYPE" "mon:doc"',
      '[0 127.0.0.1 read-only] "GET" "mon:read-only"',
      '[0 127.0.0.1 default] "GET" "mon:end"',
    ]);
  });
});

describe('concurrent writers', () => {
  it('lose no update: every increment and append of many clients at once lands', async () => {
    await run('JSON.SET', 'c:doc', '$', '{"n":0,"log":[],"by":{}}');
    const writers = 10;
    const each = 20;
    await Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        for (let i = 0; i < each; i++) {
          // Separate requests, interleaved with the other writers': a read-modify-write outside Redis
          // would lose some of them.
          const replies = await Promise.all([
            run('JSON.NUMINCRBY', 'c:doc', '$.n', '1'),
            run('JSON.ARRAPPEND', 'c:doc', '$.log', `"${w}:${i}"`),
            run('JSON.SET', 'c:doc', `$.by.w${w}`, String(i + 1)),
          ]);
          for (const reply of replies) expect(reply.error).toBeUndefined();
        }
      }),
    );
    const doc = JSON.parse((await run('JSON.GET', 'c:doc')).result as string) as {
      n: number;
      log: string[];
      by: Record<string, number>;
    };
    expect(doc.n).toBe(writers * each);
    expect(doc.log).toHaveLength(writers * each);
    expect(new Set(doc.log).size).toBe(writers * each);
    expect(Object.values(doc.by)).toEqual(Array.from({ length: writers }, () => each));
  });
});

describe('Redis commands newer than the server', () => {
  it('say which version they need', async () => {
    const version = ((await env.kv.admin(['INFO', 'server'])) as Buffer)
      .toString()
      .match(/redis_version:(\S+)/)![1]!;
    expect(await run('VCARD', 'v')).toEqual({
      error: `ERR 'VCARD' needs Redis 8.0; this server is ${version}`,
    });
    expect(await run('VSIM', 'v', 'ELE', 'a')).toEqual({
      error: `ERR 'VSIM' needs Redis 8.0; this server is ${version}`,
    });
    // Emulated instead (newer-commands.test.ts, hash-field-expiry.test.ts): answered, not explained.
    expect(await run('BITOP', 'DIFF', 'd', 'a', 'b')).toEqual({ result: 0 });
    expect(await run('HEXPIRE', 'h', '10', 'FIELDS', '1', 'f')).toEqual({ result: [-2] });
    expect((await run('NOSUCHCOMMAND')).error).toMatch(/^ERR unknown command 'NOSUCHCOMMAND'/);
    // Names that are properties of every object are unknown commands like any other.
    for (const name of ['constructor', '__proto__', 'toString']) {
      expect((await run(name)).error, name).toMatch(/^ERR unknown command/);
      expect((await run('BITOP', name, 'd', 'a')).error, name).toBe('ERR syntax error');
    }
  });
});

describe('FCALL_RO', () => {
  it('runs a function that only reads though its library does not flag it, and refuses writes', async () => {
    const code = [
      '#!lua name=rolib',
      "redis.register_function('plain_get', function(keys, args) return redis.call('GET', keys[1]) end)",
      "redis.register_function{function_name='set_value', callback=function(keys, args) return redis.call('SET', keys[1], args[1]) end}",
    ].join('\n');
    expect(await run('FUNCTION', 'LOAD', 'REPLACE', code)).toEqual({ result: 'rolib' });
    await run('SET', 'fro:k', 'v1');
    expect(await run('FCALL_RO', 'plain_get', '1', 'fro:k')).toEqual({ result: 'v1' });
    const write = await run('FCALL_RO', 'set_value', '1', 'fro:k', 'v2');
    expect(write.error).toMatch(/Write commands are not allowed from read-only scripts/);
    expect(await run('GET', 'fro:k')).toEqual({ result: 'v1' });
    expect(await run('FCALL', 'set_value', '1', 'fro:k', 'v3')).toEqual({ result: 'OK' });
    expect((await run('FCALL_RO', 'nope', '0')).error).toMatch(/Function not found/);
    await run('FUNCTION', 'DELETE', 'rolib');
  });
});

describe('the script cache', () => {
  it('is refilled after SCRIPT FLUSH', async () => {
    await run('JSON.SET', 's:doc', '$', '{"a":1}');
    expect(await run('SCRIPT', 'FLUSH')).toEqual({ result: 'OK' });
    expect(await run('JSON.GET', 's:doc', '$.a')).toEqual({ result: '[1]' });
    await run('SCRIPT', 'FLUSH');
    const tx = await env.kv.json('/multi-exec', {
      method: 'POST',
      body: JSON.stringify([['JSON.GET', 's:doc']]),
    });
    expect(tx.body).toEqual([{ result: '{"a":1}' }]);
  });
});

describe('persistence', () => {
  it('keeps JSON documents across a restart of redis-server and of the service', async () => {
    const { dir, remove } = tempDir();
    try {
      const first = await startTestService({ dataDir: dir });
      const doc = '{"z":"é","a":[1,{"b":12345678901234567890}]}';
      await first.call('/', { method: 'POST', body: JSON.stringify(['JSON.SET', 'keep:doc', '$', doc]) });
      // redis-server dies (SIGTERM flushes the AOF) and the service starts it again.
      const pid = first.managed!.pid!;
      process.kill(pid, 'SIGTERM');
      await eventually(async () => {
        const res = await first.call('/json.get/keep:doc');
        return res.status === 200 && first.managed!.pid !== pid;
      });
      expect(await first.json('/json.get/keep:doc')).toEqual({ status: 200, body: { result: doc } });
      expect(await first.json('/type/keep:doc')).toEqual({ status: 200, body: { result: 'ReJSON-RL' } });
      await first.stop(true);
      const second = await startTestService({ dataDir: dir });
      expect(await second.json('/json.get/keep:doc/$.a[1].b')).toEqual({
        status: 200,
        body: { result: '[12345678901234567890]' },
      });
      await second.stop(true);
    } finally {
      remove();
    }
  });
});
