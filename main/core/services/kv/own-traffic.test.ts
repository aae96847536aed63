import { describe, expect, it } from 'vitest';
import { commandsOf, OwnTraffic } from './own-traffic';

describe('OwnTraffic', () => {
  it('notes only while watched, and tags each sent command once', () => {
    const traffic = new OwnTraffic();
    traffic.note('http://kv', [['SET', 'a', '1']]);
    const watch = traffic.watch('http://KV/');
    expect(watch.isOwn('"SET" "a" "1"')).toBe(false);
    traffic.note('http://kv', [
      ['SET', 'a', '1'],
      ['SET', 'a', '1'],
    ]);
    expect(watch.isOwn('"SET" "a" "1"')).toBe(true);
    expect(watch.isOwn('"SET" "a" "1"')).toBe(true);
    expect(watch.isOwn('"SET" "a" "1"')).toBe(false);
    watch.close();
    expect(traffic.watching('http://kv')).toBe(false);
  });

  it('forgets notes after a minute', () => {
    let now = 0;
    const traffic = new OwnTraffic(() => now);
    const watch = traffic.watch('http://kv');
    traffic.note('http://kv', [['GET', 'old']]);
    now = 61_000;
    traffic.note('http://kv', [['GET', 'new']]);
    expect(watch.isOwn('"GET" "old"')).toBe(false);
    expect(watch.isOwn('"GET" "new"')).toBe(true);
  });

  it('knows what each REST request runs', () => {
    expect(commandsOf('/', '["GET","k"]')).toEqual([['GET', 'k']]);
    expect(commandsOf('/pipeline', '[["GET","k"],["INCR","n"]]')).toEqual([
      ['GET', 'k'],
      ['INCR', 'n'],
    ]);
    expect(commandsOf('/multi-exec', '[["INCR","n"]]')).toEqual([['MULTI'], ['INCR', 'n'], ['EXEC']]);
    expect(commandsOf('/subscribe/a%2Cb')).toEqual([['SUBSCRIBE', 'a,b']]);
    expect(commandsOf('/psubscribe/u%3A*')).toEqual([['PSUBSCRIBE', 'u:*']]);
    expect(commandsOf('/', 'not json')).toEqual([]);
  });
});

describe('binary values', () => {
  it('quotes bytes as Redis does', () => {
    const traffic = new OwnTraffic();
    const watch = traffic.watch('http://kv');
    traffic.note('http://kv', [['SET', 'b', new Uint8Array([0xff, 0x00, 0x41])]]);
    expect(watch.isOwn('"SET" "b" "\\xff\\x00A"')).toBe(true);
  });
});
