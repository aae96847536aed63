// KvClient against the real local stack's KV service (redis-server behind the REST bridge).
import { describe, expect, it } from 'vitest';
import { BridgeError } from '../../../../shared/bridge/errors';
import { chooseAccess, KvClient, SseDataParser } from './client';
import { kvProfile, useKvStack } from './kv-test-stack';

const env = useKvStack();

describe('KvClient', () => {
  it('runs a command and answers the result with timing', async () => {
    const kv = new KvClient(kvProfile(env.kv));
    expect(kv.access).toBe('standard');
    await kv.call(['SET', 'client:a', 'héllo']);
    const reply = await kv.command(['GET', 'client:a']);
    expect(reply).toMatchObject({ ok: true, result: 'héllo', status: 200 });
    expect(reply.ms).toBeGreaterThan(0);
  });

  it('answers a command error as a reply with the server text, and call() throws it', async () => {
    const kv = new KvClient(kvProfile(env.kv));
    await kv.call(['SET', 'client:str', 'x']);
    const reply = await kv.command(['LPUSH', 'client:str', 'y']);
    expect(reply.ok).toBe(false);
    expect(!reply.ok && reply.error).toMatch(/^WRONGTYPE/);
    await expect(kv.call(['LPUSH', 'client:str', 'y'])).rejects.toMatchObject({
      code: 'SERVICE_ERROR',
      message: expect.stringMatching(/^WRONGTYPE/),
    });
  });

  it('base64 format returns raw bytes of strings, OK stays plain', async () => {
    const kv = new KvClient(kvProfile(env.kv));
    const set = await kv.command(['SET', 'client:b', 'hi'], 'base64');
    expect(set).toMatchObject({ ok: true, result: 'OK' });
    const get = await kv.command(['GET', 'client:b'], 'base64');
    expect(get).toMatchObject({ ok: true, result: Buffer.from('hi').toString('base64') });
  });

  it('resp2 format returns the protocol bytes', async () => {
    const kv = new KvClient(kvProfile(env.kv));
    await kv.call(['DEL', 'client:l']);
    await kv.call(['RPUSH', 'client:l', 'a', 'bc']);
    const raw = await kv.commandRaw(['LRANGE', 'client:l', '0', '-1']);
    expect(raw.bytes.toString('latin1')).toBe('*2\r\n$1\r\na\r\n$2\r\nbc\r\n');
    const failing = await kv.commandRaw(['NOSUCHCOMMAND']);
    expect(failing.bytes.toString('latin1')).toMatch(/^-ERR/);
    const pipe = await kv.pipelineRaw([['PING'], ['INCRBY', 'client:n', '2']]);
    expect(pipe.bytes.toString('latin1')).toMatch(/^\+PONG\r\n:\d+\r\n$/);
  });

  it('pipeline keeps each row result or error in place', async () => {
    const kv = new KvClient(kvProfile(env.kv));
    await kv.call(['SET', 'client:p', 'v']);
    const { entries } = await kv.pipeline([
      ['GET', 'client:p'],
      ['HGET', 'client:p', 'f'],
      ['ECHO', 'x'],
    ]);
    expect(entries[0]).toEqual({ result: 'v' });
    expect(entries[1]!.error).toMatch(/^WRONGTYPE/);
    expect(entries[2]).toEqual({ result: 'x' });
  });

  it('multi-exec: a failing row is in place, an unknown command discards the whole transaction', async () => {
    const kv = new KvClient(kvProfile(env.kv));
    await kv.call(['SET', 'client:t', 'v']);
    const ran = await kv.multiExec([
      ['INCR', 'client:t'],
      ['SET', 'client:t2', '1'],
    ]);
    expect('entries' in ran && ran.entries[0]!.error).toMatch(/not an integer/);
    expect('entries' in ran && ran.entries[1]).toEqual({ result: 'OK' });
    const discarded = await kv.multiExec([['SET', 'client:t3', '1'], ['NOSUCHCOMMAND']]);
    expect('discarded' in discarded && discarded.discarded).toMatch(/ERR/);
    expect(await kv.call(['EXISTS', 'client:t3'])).toBe(0);
  });

  it('a read-only profile sends its read-only token: the server refuses writes and SCAN itself', async () => {
    const profile = kvProfile(env.kv, { readOnly: true });
    expect(chooseAccess(profile)).toBe('readOnly');
    const kv = new KvClient(profile);
    const write = await kv.command(['SET', 'client:ro', '1']);
    expect(!write.ok && write.error).toMatch(/NOPERM/);
    const scan = await kv.command(['SCAN', '0']);
    expect(!scan.ok && scan.error).toMatch(/NOPERM/);
    expect(chooseAccess(kvProfile(env.kv, { standard: false }))).toBe('readOnly');
    expect(chooseAccess(kvProfile(env.kv, { readOnlyToken: false, readOnly: true }))).toBe('standard');
  });

  it('a bad token is a SERVICE_ERROR 401 with the server text, a missing URL is NOT_CONFIGURED', async () => {
    const profile = kvProfile(env.kv);
    const bad = new KvClient({ ...profile, secret: () => 'nope' });
    const error = await bad.command(['PING']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BridgeError);
    expect(error).toMatchObject({ code: 'SERVICE_ERROR', status: 401 });
    const noUrl = new KvClient({ ...profile, settings: { ...profile.settings, kvUrl: '' } });
    await expect(noUrl.command(['PING'])).rejects.toMatchObject({ code: 'NOT_CONFIGURED' });
  });

  it('events() yields the data of a subscribe stream', async () => {
    const kv = new KvClient(kvProfile(env.kv));
    const controller = new AbortController();
    const stream = kv.events('/subscribe/client-chan', controller.signal);
    const first = await stream.next();
    expect(first.value).toBe('subscribe,client-chan,1');
    await kv.call(['PUBLISH', 'client-chan', 'hello, world']);
    const second = await stream.next();
    expect(second.value).toBe('message,client-chan,hello, world');
    controller.abort();
    expect((await stream.next()).done).toBe(true);
  });
});

describe('SseDataParser', () => {
  it('joins multi-line data, skips comments and handles split chunks', () => {
    const parser = new SseDataParser();
    expect(parser.push('data: a\n\n: ping\n\ndata: b')).toEqual(['a']);
    expect(parser.push('1\ndata: b2\r\n\r\n')).toEqual(['b1\nb2']);
  });
});
