// The REST API against a real redis-server started by the service: request forms, errors, encodings,
// transactions, headers, CORS, limits and the commands the bridge refuses.
import net from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { commandBody, commandPath, tokenizeCommandLine } from '../../shared/kv/command-line';
import { LOCAL_TOKEN } from './credentials';
import { RespError } from './resp';
import type { TestService } from './test-support';
import { startTestService } from './test-support';

let kv: TestService;

beforeAll(async () => {
  kv = await startTestService();
});

afterAll(async () => {
  await kv?.stop();
});

const post = (body: string | Uint8Array<ArrayBuffer>, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  body,
  headers,
});

/**
 * Sends a raw HTTP/1.1 request in the given pieces (the next one after the previous was written and a
 * short pause) and resolves with the whole response text once the server closes or answers fully.
 */
async function rawRequest(service: TestService, pieces: string[]): Promise<string> {
  const { port } = new URL(service.url);
  const socket = net.connect(Number(port), '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let text = '';
  const answered = new Promise<string>((resolve, reject) => {
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      const head = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: (\d+)/i.exec(text);
      if (head !== -1 && length && text.length >= head + 4 + Number(length[1])) resolve(text);
    });
    socket.once('error', reject);
    socket.once('close', () => resolve(text));
  });
  for (const [i, piece] of pieces.entries()) {
    if (i > 0) await new Promise((r) => setTimeout(r, 30));
    await new Promise<void>((resolve) => socket.write(piece, () => resolve()));
  }
  const response = await answered;
  socket.destroy();
  return response;
}

function requestHead(service: TestService, extra: string): string {
  return `POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${service.token}\r\n${extra}\r\n`;
}

describe('request forms', () => {
  it('runs path commands with GET, HEAD, POST and PUT', async () => {
    expect(await kv.json('/set/form:get/v1')).toEqual({ status: 200, body: { result: 'OK' } });
    expect(await kv.json('/get/form:get')).toEqual({ status: 200, body: { result: 'v1' } });
    const head = await kv.call('/set/form:head/v2', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect(await kv.admin(['GET', 'form:head'])).toEqual(Buffer.from('v2'));
    expect((await kv.json('/set/form:post/v3', { method: 'POST' })).body).toEqual({ result: 'OK' });
    expect((await kv.json('/set/form:put/v4', { method: 'PUT' })).body).toEqual({ result: 'OK' });
    expect((await kv.json('/mget/form:post/form:put')).body).toEqual({ result: ['v3', 'v4'] });
  });

  it('reads a POST / body whole or in pieces, with a length or chunked, and answers with Content-Length', async () => {
    const body = '["SET","form:pieces","' + 'v'.repeat(200) + '"]';
    const cases = [
      // One write (the usual case: the body is parsed with the headers), then the body in two pieces.
      [requestHead(kv, `Content-Length: ${body.length}\r\n`) + body],
      [requestHead(kv, `Content-Length: ${body.length}\r\n`) + body.slice(0, 50), body.slice(50)],
      [
        requestHead(kv, 'Transfer-Encoding: chunked\r\n') +
          `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`,
      ],
      [
        requestHead(kv, 'Transfer-Encoding: chunked\r\n') + `32\r\n${body.slice(0, 50)}\r\n`,
        `${(body.length - 50).toString(16)}\r\n${body.slice(50)}\r\n0\r\n\r\n`,
      ],
    ];
    for (const pieces of cases) {
      await kv.admin(['DEL', 'form:pieces']);
      const response = await rawRequest(kv, pieces);
      expect(response.startsWith('HTTP/1.1 200 OK\r\n')).toBe(true);
      expect(response).toMatch(/\r\ncontent-length: 15\r\n/i);
      expect(response.endsWith('\r\n\r\n{"result":"OK"}')).toBe(true);
      expect(await kv.admin(['GET', 'form:pieces'])).toEqual(Buffer.from('v'.repeat(200)));
    }
    // An empty body is no command, whichever way it comes.
    for (const extra of ['Content-Length: 0\r\n', 'Transfer-Encoding: chunked\r\n']) {
      const response = await rawRequest(kv, [
        requestHead(kv, extra) + (extra.startsWith('Transfer') ? '0\r\n\r\n' : ''),
      ]);
      expect(response.startsWith('HTTP/1.1 400 Bad Request\r\n')).toBe(true);
      expect(response).toContain('{"error":"ERR no command');
    }
  });

  it('percent-decodes path segments into bytes', async () => {
    await kv.call('/set/form%2Fslash%20key/a%2Fb%25%FF');
    expect(await kv.admin(['GET', 'form/slash key'])).toEqual(
      Buffer.concat([Buffer.from('a/b%'), Buffer.from([0xff])]),
    );
  });

  it('appends a POST body raw (binary safe) as the last argument, then query parameters', async () => {
    const value = new Uint8Array([0x00, 0xff, 0x0d, 0x0a, 0x22, 0x7b]);
    const res = await kv.call('/set/form:binary?EX=100&_token=ignored-because-header-wins', post(value));
    expect(await res.json()).toEqual({ result: 'OK' });
    expect(await kv.admin(['GET', 'form:binary'])).toEqual(Buffer.from(value));
    const ttl = (await kv.admin(['TTL', 'form:binary'])) as number;
    expect(ttl).toBeGreaterThan(90);
    // A JSON-looking body is a value like any other: not parsed.
    await kv.call('/set/form:json', post('{"a": [1, 2]}'));
    expect(await kv.admin(['GET', 'form:json'])).toEqual(Buffer.from('{"a": [1, 2]}'));
  });

  it('takes a query parameter without a value as one argument', async () => {
    await kv.call('/set/form:nx/1');
    expect((await kv.json('/set/form:nx/2?NX')).body).toEqual({ result: null });
    expect((await kv.json('/set/form:nx/3?XX&GET')).body).toEqual({ result: '1' });
  });

  it('runs a JSON array posted to / with literal numbers and booleans as words', async () => {
    const res = await kv.json('/', post('["SET", "form:num", 12345678901234567890.50]'));
    expect(res).toEqual({ status: 200, body: { result: 'OK' } });
    expect(await kv.admin(['GET', 'form:num'])).toEqual(Buffer.from('12345678901234567890.50'));
    await kv.call('/', post('["SET","form:bool",true]'));
    expect(await kv.admin(['GET', 'form:bool'])).toEqual(Buffer.from('true'));
  });

  it('runs a console command line as typed, in the body and the path form', async () => {
    const parsed = tokenizeCommandLine('SET "line key" "a/b c\\n%" EX 100');
    if (!parsed.ok) throw new Error(parsed.error);
    expect((await kv.json('/', post(commandBody(parsed.args)))).body).toEqual({ result: 'OK' });
    expect(await kv.admin(['GET', 'line key'])).toEqual(Buffer.from('a/b c\n%'));
    expect((await kv.json(commandPath(['GET', 'line key']))).body).toEqual({ result: 'a/b c\n%' });
  });

  it('does not need a JSON content type (curl -d sends form-urlencoded)', async () => {
    const res = await kv.json(
      '/',
      post('["SET","form:curl","x"]', { 'content-type': 'application/x-www-form-urlencoded' }),
    );
    expect(res.body).toEqual({ result: 'OK' });
  });

  it('answers /pipeline with 200 and one entry per command, even when some fail', async () => {
    const res = await kv.json(
      '/pipeline',
      post('[["SET","pipe:a","1"],["INCR","pipe:a"],["HGET","pipe:a","f"],["GET","pipe:a"],["NOSUCH"]]'),
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { result: 'OK' },
      { result: 2 },
      { error: 'WRONGTYPE Operation against a key holding the wrong kind of value' },
      { result: '2' },
      { error: "ERR unknown command 'NOSUCH', with args beginning with: " },
    ]);
  });

  it('refuses malformed pipeline bodies with 400', async () => {
    for (const body of ['', '[]', '{"a":1}', '[["get","a"],"x"]', '[["get"]']) {
      const res = await kv.json('/pipeline', post(body));
      expect(res.status, body).toBe(400);
      expect((res.body as { error: string }).error).toMatch(/^ERR /);
    }
    expect((await kv.json('/', post('not json'))).status).toBe(400);
    const empty = await kv.json('/', { method: 'POST' });
    expect(empty.status).toBe(400);
    expect((empty.body as { error: string }).error).toMatch(/^ERR no command/);
  });

  it('answers bodies nested 20,000 deep on /, /pipeline and /multi-exec without overflowing the stack', async () => {
    const deep = '['.repeat(20_000) + ']'.repeat(20_000);
    const unclosed = '['.repeat(20_000);
    for (const path of ['/', '/pipeline', '/multi-exec']) {
      for (const body of [deep, unclosed, `[["SET","nest:k",${deep}]]`, `["SET","nest:k",${unclosed}`]) {
        const res = await kv.json(path, post(body));
        expect(res.status, `${path} ${body.slice(-20)}`).toBeLessThan(500);
        expect(res.status === 200 || res.status === 400, `${path}: ${res.status}`).toBe(true);
        if (res.status === 400) expect((res.body as { error: string }).error).toMatch(/^ERR /);
      }
    }
    // A deep value is still just a value: stored as its JSON text.
    expect((await kv.json('/', post(`["SET","nest:v",${deep}]`))).body).toEqual({ result: 'OK' });
    expect((await kv.admin(['STRLEN', 'nest:v'])) as number).toBe(40_000);
  });
});

describe('transactions (/multi-exec)', () => {
  it('runs atomically and reports a failing command in place', async () => {
    const res = await kv.json(
      '/multi-exec',
      post('[["SET","tx:a","1"],["HSET","tx:a","f","v"],["INCR","tx:a"],["GET","tx:a"]]'),
    );
    expect(res).toEqual({
      status: 200,
      body: [
        { result: 'OK' },
        { error: 'WRONGTYPE Operation against a key holding the wrong kind of value' },
        { result: 2 },
        { result: '2' },
      ],
    });
  });

  it('discards the whole transaction on a syntax error, with the error itself and a 400', async () => {
    const res = await kv.json('/multi-exec', post('[["SET","tx:b","1"],["SET","tx:c"]]'));
    expect(res).toEqual({ status: 400, body: { error: "ERR wrong number of arguments for 'set' command" } });
    expect(await kv.admin(['EXISTS', 'tx:b'])).toBe(0);
  });

  it('discards the whole transaction when it holds an unsupported command', async () => {
    const res = await kv.json('/multi-exec', post('[["SET","tx:d","1"],["BLPOP","tx:list","0"]]'));
    expect(res.status).toBe(400);
    expect((res.body as { error: string }).error).toContain("'blpop'");
    expect(await kv.admin(['EXISTS', 'tx:d'])).toBe(0);
  });

  it('always answers JSON, also when RESP2 is asked for', async () => {
    const res = await kv.call(
      '/multi-exec',
      post('[["SET","tx:e","1"]]', { 'upstash-response-format': 'resp2' }),
    );
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual([{ result: 'OK' }]);
  });

  it('encodes transaction entries like pipeline entries in base64 mode', async () => {
    const res = await kv.json(
      '/multi-exec',
      post('[["SET","tx:f","x"],["GET","tx:f"],["LPUSH","tx:f","y"]]', { 'upstash-encoding': 'base64' }),
    );
    expect(res.body).toEqual([
      { result: 'OK' },
      { result: 'eA==' },
      { error: 'WRONGTYPE Operation against a key holding the wrong kind of value' },
    ]);
  });

  it('keeps a transaction connection for the next transaction after a clean EXEC', async () => {
    await kv.json('/multi-exec', post('[["PING"]]'));
    const idle = kv.connections().idle;
    expect(idle).toBeGreaterThanOrEqual(1);
    await kv.json('/multi-exec', post('[["PING"]]'));
    expect(kv.connections().idle).toBe(idle);
  });
});

describe('statuses and headers', () => {
  it('answers 405 for methods other than HEAD, GET, POST and PUT', async () => {
    for (const method of ['DELETE', 'PATCH']) {
      const res = await kv.call('/get/x', { method });
      expect(res.status).toBe(405);
      expect(((await res.json()) as { error: string }).error).toMatch(/^ERR method/);
    }
  });

  it('answers 401 for a missing or wrong token, in the header or ?_token', async () => {
    const expected = { error: 'WRONGPASS invalid or missing auth token' };
    const none = await fetch(`${kv.url}/get/x`);
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual(expected);
    const wrong = await kv.call('/get/x', { headers: { authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual(expected);
    expect((await fetch(`${kv.url}/get/x?_token=nope`)).status).toBe(401);
    expect((await fetch(`${kv.url}/set/tok:q/1?_token=${LOCAL_TOKEN}`)).status).toBe(200);
    expect(await kv.admin(['GET', 'tok:q'])).toEqual(Buffer.from('1'));
  });

  it('answers a failing single command with 400 and the Redis error text unchanged', async () => {
    await kv.call('/set/err:s/abc');
    expect(await kv.json('/incr/err:s')).toEqual({
      status: 400,
      body: { error: 'ERR value is not an integer or out of range' },
    });
    expect(await kv.json('/evalsha/0000000000000000000000000000000000000000/0')).toEqual({
      status: 400,
      body: { error: 'NOSCRIPT No matching script. Please use EVAL.' },
    });
  });

  it('sends an upstash-sync-token that changes on every response, errors included', async () => {
    const tokens = new Set<string>();
    const responses = [
      await kv.call('/ping'),
      await kv.call('/incr/err:s'),
      await kv.call('/pipeline', post('[["ping"]]')),
      await fetch(`${kv.url}/ping`),
      await kv.call('/ping', { method: 'DELETE' }),
      await fetch(`${kv.url}/ping`, { method: 'OPTIONS' }),
    ];
    for (const res of responses) {
      const token = res.headers.get('upstash-sync-token');
      expect(token).toBeTruthy();
      tokens.add(token!);
    }
    expect(tokens.size).toBe(responses.length);
  });

  it('answers CORS preflight requests', async () => {
    const res = await fetch(`${kv.url}/pipeline`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:3000',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, upstash-encoding',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    expect(res.headers.get('access-control-allow-headers')).toContain('upstash-encoding');
    const get = await kv.call('/ping');
    expect(get.headers.get('access-control-expose-headers')).toBe('upstash-sync-token');
  });
});

describe('reply encodings', () => {
  const invalidUtf8 = Buffer.from([0x61, 0xff, 0x62, 0xc3]);

  beforeAll(async () => {
    await kv.admin(['SET', 'enc:bin', invalidUtf8]);
    await kv.admin(['SET', 'enc:ok', 'OK']);
    await kv.admin(['DEL', 'enc:list']);
    await kv.admin(['RPUSH', 'enc:list', 'a', invalidUtf8]);
  });

  it('answers JSON with integers as numbers, nil as null and invalid UTF-8 replaced by U+FFFD', async () => {
    expect((await kv.json('/get/enc:bin')).body).toEqual({ result: 'a\ufffdb\ufffd' });
    expect((await kv.json('/strlen/enc:bin')).body).toEqual({ result: 4 });
    expect((await kv.json('/get/enc:missing')).body).toEqual({ result: null });
    expect((await kv.json('/lrange/enc:list/0/-1')).body).toEqual({ result: ['a', 'a\ufffdb\ufffd'] });
    expect((await kv.json('/', post('["EVAL","return {1,{\\"x\\",false},\\"y\\"}","0"]'))).body).toEqual({
      result: [1, ['x', null], 'y'],
    });
  });

  it('base64-encodes every string but a top-level OK status', async () => {
    const b64 = { 'upstash-encoding': 'base64' };
    expect((await kv.json('/get/enc:bin', { headers: b64 })).body).toEqual({
      result: invalidUtf8.toString('base64'),
    });
    expect((await kv.json('/set/enc:x/y', { headers: b64 })).body).toEqual({ result: 'OK' });
    // A bulk string that happens to read "OK" is still data.
    expect((await kv.json('/get/enc:ok', { headers: b64 })).body).toEqual({ result: 'T0s=' });
    // Other statuses and nested strings (including a nested OK status) are encoded.
    expect((await kv.json('/ping', { headers: b64 })).body).toEqual({ result: 'UE9ORw==' });
    expect((await kv.json('/type/enc:list', { headers: b64 })).body).toEqual({ result: 'bGlzdA==' });
    expect(
      (await kv.json('/', post('["EVAL","return {redis.status_reply(\\"OK\\"), 7}","0"]', b64))).body,
    ).toEqual({
      result: ['T0s=', 7],
    });
    expect((await kv.json('/pipeline', post('[["SET","enc:x","y"],["GET","enc:x"]]', b64))).body).toEqual([
      { result: 'OK' },
      { result: 'eQ==' },
    ]);
  });

  it('answers raw RESP2 bytes as application/octet-stream when asked', async () => {
    const resp2 = { 'upstash-response-format': 'resp2' };
    const single = await kv.call('/get/enc:bin', { headers: resp2 });
    expect(single.headers.get('content-type')).toBe('application/octet-stream');
    expect(Buffer.from(await single.arrayBuffer())).toEqual(
      Buffer.concat([Buffer.from('$4\r\n'), invalidUtf8, Buffer.from('\r\n')]),
    );
    const failing = await kv.call('/incr/enc:bin', { headers: resp2 });
    expect(failing.status).toBe(400);
    expect(await failing.text()).toBe('-ERR value is not an integer or out of range\r\n');
    const pipe = await kv.call(
      '/pipeline',
      post('[["SET","enc:y","1"],["INCR","enc:y"],["BLPOP","k","0"]]', resp2),
    );
    expect(pipe.status).toBe(200);
    expect(await pipe.text()).toBe(
      "+OK\r\n:2\r\n-ERR blocking command 'blpop' is not supported by the REST API\r\n",
    );
    expect(
      await (await kv.call('/get/enc:y', { headers: { 'upstash-response-format': 'JSON' } })).json(),
    ).toEqual({
      result: '2',
    });
  });

  it('refuses an unknown response format, and RESP2 combined with base64', async () => {
    const bad = await kv.json('/ping', { headers: { 'upstash-response-format': 'xml' } });
    expect(bad.status).toBe(400);
    const both = await kv.json('/ping', {
      headers: { 'upstash-response-format': 'resp2', 'upstash-encoding': 'base64' },
    });
    expect(both.status).toBe(400);
    expect((both.body as { error: string }).error).toContain('cannot be combined');
  });
});

describe('commands the bridge refuses', () => {
  const stateChanging = [
    ['SELECT', '1'],
    ['AUTH', 'x'],
    ['HELLO', '3'],
    ['CLIENT', 'SETNAME', 'x'],
    ['CLIENT', 'LIST'],
    ['RESET'],
    ['QUIT'],
    ['WATCH', 'k'],
    ['UNWATCH'],
    ['DISCARD'],
    ['MULTI'],
    ['EXEC'],
    ['SUBSCRIBE', 'c'],
    ['PSUBSCRIBE', 'c*'],
    ['UNSUBSCRIBE'],
    ['MONITOR'],
    ['XREAD', 'BLOCK', '0', 'STREAMS', 's', '$'],
    ['XREADGROUP', 'GROUP', 'g', 'c', 'BLOCK', '10', 'STREAMS', 's', '>'],
    ['SYNC'],
    ['ACL', 'SETUSER', 'default', 'nopass'],
    ['ACL', 'DELUSER', 'default_ro'],
    ['ACL', 'DELUSER', 'nosuchuser', 'default_ro'],
    ['acl', 'deluser', 'nosuchuser', 'other', 'default'],
    ['ACL', 'setuser', 'default_ro', 'off'],
    ['CONFIG', 'SET', 'requirepass', 'x'],
  ];

  it.each(stateChanging.map((c) => [c.join(' '), c]))(
    'refuses %s with a clear ERR',
    async (_name, command) => {
      const res = await kv.json('/', post(JSON.stringify(command)));
      expect(res.status).toBe(400);
      expect((res.body as { error: string }).error).toMatch(
        /^ERR .*(not supported|managed by the KV service)/,
      );
    },
  );

  it('keeps the read-only token working after a refused multi-user ACL DELUSER', async () => {
    for (const path of ['/', '/pipeline', '/multi-exec']) {
      const command = ['ACL', 'DELUSER', 'nosuchuser', 'default_ro'];
      await kv.json(path, post(JSON.stringify(path === '/' ? command : [command])));
    }
    await kv.call('/acl/deluser/nosuchuser/default_ro');
    const readOnly = { headers: { authorization: `Bearer ${kv.readOnlyToken}` } };
    expect((await kv.json('/ping', readOnly)).body).toEqual({ result: 'PONG' });
    // Other users are the caller's to manage, in one command too.
    await kv.json('/', post('["ACL","SETUSER","Default","on"]'));
    expect((await kv.json('/', post('["ACL","DELUSER","Default","nosuchuser"]'))).body).toEqual({
      result: 1,
    });
  });

  it('refuses them per entry in a pipeline and keeps the other entries', async () => {
    const res = await kv.json('/pipeline', post('[["SELECT","2"],["SET","ref:a","1"],["GET","ref:a"]]'));
    expect(res.status).toBe(200);
    const body = res.body as { error?: string; result?: unknown }[];
    expect(body[0]!.error).toMatch(/'select' is not supported/);
    expect(body.slice(1)).toEqual([{ result: 'OK' }, { result: '1' }]);
    // The shared connection is still on database 0.
    expect(await kv.admin(['GET', 'ref:a'])).toEqual(Buffer.from('1'));
  });

  it('refuses every blocking command of the Redis command table, and allows non-blocking XREAD', async () => {
    const table = (await kv.admin(['COMMAND'])) as unknown[][];
    const blocking = table
      .filter((entry) => (entry[2] as string[]).includes('blocking'))
      .map((entry) => String(entry[0]));
    expect(blocking).toContain('blpop');
    const body = blocking.map((name) =>
      name === 'xread' || name === 'xreadgroup'
        ? [name, ...(name === 'xreadgroup' ? ['GROUP', 'g', 'c'] : []), 'BLOCK', '1', 'STREAMS', 's', '0']
        : [name, 'k', '0'],
    );
    const res = await kv.json('/pipeline', post(JSON.stringify(body)));
    const entries = res.body as { error?: string }[];
    entries.forEach((entry, i) => expect(entry.error, blocking[i]).toMatch(/^ERR blocking command/));
    await kv.admin(['XADD', 'ref:stream', '*', 'f', 'v']);
    const plain = await kv.json('/xread/COUNT/1/STREAMS/ref:stream/0');
    expect(plain.status).toBe(200);
  });

  it('reads XREADGROUP options as Redis does: a group or consumer named "block" is not the BLOCK option', async () => {
    await kv.admin(['XADD', 'ref:blockname', '1-1', 'f', 'v']);
    await kv.admin(['XGROUP', 'CREATE', 'ref:blockname', 'block', '0']);
    const entry = [['ref:blockname', [['1-1', ['f', 'v']]]]];
    // The SDK's redis.xreadgroup('block', 'block', key, '>') sends exactly this.
    const res = await kv.json(
      '/pipeline',
      post(
        JSON.stringify([
          ['XREADGROUP', 'GROUP', 'block', 'block', 'STREAMS', 'ref:blockname', '>'],
          ['XREADGROUP', 'GROUP', 'block', 'c', 'COUNT', 'block', 'STREAMS', 'ref:blockname', '0'],
          ['XREAD', 'COUNT', '5', 'STREAMS', 'ref:blockname', '0'],
          ['XREADGROUP', 'GROUP', 'block', 'block', 'BLOCK', '1', 'STREAMS', 'ref:blockname', '>'],
        ]),
      ),
    );
    const entries = res.body as { error?: string; result?: unknown }[];
    expect(entries[0]).toEqual({ result: entry });
    // Redis reads `COUNT block` as a count and refuses it: Redis's error, not the bridge's.
    expect(entries[1]).toEqual({ error: 'ERR value is not an integer or out of range' });
    expect(entries[2]).toEqual({ result: entry });
    expect(entries[3]!.error).toMatch(/^ERR blocking command 'xreadgroup'/);
  });

  it('answers JSON.* in the path form, and discards a transaction with an unknown JSON command', async () => {
    expect((await kv.json('/json.set/json:p/$/%7B%22a%22%3A1%7D')).body).toEqual({ result: 'OK' });
    expect(await kv.json('/json.get/json:p/$.a')).toEqual({ status: 200, body: { result: '[1]' } });
    const tx = await kv.json('/multi-exec', post('[["SET","json:a","1"],["JSON.NOPE","k"]]'));
    expect(tx).toEqual({
      status: 400,
      body: { error: "ERR unknown command 'JSON.NOPE', with args beginning with: 'k' " },
    });
    expect(await kv.admin(['EXISTS', 'json:a'])).toBe(0);
  });
});

describe('limits', () => {
  it('refuses a body over the default 10 MB limit', async () => {
    const res = await kv.json('/set/lim:big', post(new Uint8Array(10 * 1024 * 1024 + 1)));
    expect(res).toEqual({ status: 400, body: { error: 'ERR max request size exceeded' } });
    expect(await kv.admin(['EXISTS', 'lim:big'])).toBe(0);
    const justUnder = await kv.json('/set/lim:big', post(new Uint8Array(10 * 1024 * 1024 - 100)));
    expect(justUnder.status).toBe(200);
  });

  let limited: TestService;

  beforeAll(async () => {
    limited = await startTestService({ maxRequestBytes: 1000, dailyRequestLimit: 10 });
  });

  afterAll(async () => {
    await limited?.stop();
  });

  it('refuses requests over the maximum size and discards such a transaction', async () => {
    const big = 'x'.repeat(1200);
    const single = await limited.json('/set/lim:a', post(big));
    expect(single).toEqual({ status: 400, body: { error: 'ERR max request size exceeded' } });
    const tx = await limited.json(
      '/multi-exec',
      post(
        JSON.stringify([
          ['SET', 'lim:b', '1'],
          ['SET', 'lim:c', big],
        ]),
      ),
    );
    expect(tx).toEqual({ status: 400, body: { error: 'ERR max request size exceeded' } });
    expect(await limited.admin(['EXISTS', 'lim:a', 'lim:b', 'lim:c'])).toBe(0);
  });

  it('refuses a chunked body over the limit that arrives in one piece', async () => {
    const big = 'x'.repeat(1200);
    const response = await rawRequest(limited, [
      requestHead(limited, 'Transfer-Encoding: chunked\r\n') +
        `${big.length.toString(16)}\r\n${big}\r\n0\r\n\r\n`,
    ]);
    expect(response.startsWith('HTTP/1.1 400 Bad Request\r\n')).toBe(true);
    expect(response).toContain('{"error":"ERR max request size exceeded"}');
  });

  it('stops reading a chunked body as soon as it passes the limit', async () => {
    const chunk = new Uint8Array(400);
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(chunk);
      },
    });
    const res = await limited.call('/set/lim:stream', {
      method: 'POST',
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'ERR max request size exceeded' });
    expect(await limited.admin(['EXISTS', 'lim:stream'])).toBe(0);
  });

  it('enforces the daily request limit per command', async () => {
    // 10 commands a day: 3 + 5 run, then a transaction of 3 is discarded whole, then 2 more run.
    expect(
      (await limited.json('/pipeline', post('[["SET","d:a","1"],["INCR","d:a"],["INCR","d:a"]]'))).status,
    ).toBe(200);
    const pipe = await limited.json(
      '/pipeline',
      post(JSON.stringify(Array.from({ length: 5 }, () => ['INCR', 'd:a']))),
    );
    expect((pipe.body as unknown[]).every((e) => 'result' in (e as object))).toBe(true);
    const tx = await limited.json('/multi-exec', post('[["INCR","d:a"],["INCR","d:a"],["INCR","d:a"]]'));
    expect(tx).toEqual({ status: 400, body: { error: 'ERR max daily request limit exceeded' } });
    const last = await limited.json('/pipeline', post('[["INCR","d:a"],["INCR","d:a"],["INCR","d:a"]]'));
    expect(last.body).toEqual([
      { result: 9 },
      { result: 10 },
      { error: 'ERR max daily request limit exceeded' },
    ]);
    expect(await limited.json('/get/d:a')).toEqual({
      status: 400,
      body: { error: 'ERR max daily request limit exceeded' },
    });
    expect(await limited.admin(['GET', 'd:a'])).toEqual(Buffer.from('10'));
  });
});

describe('RESP values the admin helper returns', () => {
  it('passes errors through as values', async () => {
    expect(await kv.admin(['NOSUCHCOMMAND'])).toBeInstanceOf(RespError);
  });
});
