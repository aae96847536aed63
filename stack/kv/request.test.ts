import { describe, expect, it } from 'vitest';

import { decodeComponent, mayOpenStream, parseUrl, pathCommand, route } from './request';

describe('URLs', () => {
  it('percent-decodes path segments to bytes and leaves plain ASCII alone', () => {
    expect(decodeComponent('plain', false)).toBe('plain');
    expect(decodeComponent('a%2Fb%20c', false)).toEqual(Buffer.from('a/b c'));
    expect(decodeComponent('%FF%00%e2%82%ac', false)).toEqual(Buffer.from([0xff, 0, 0xe2, 0x82, 0xac]));
    expect(decodeComponent('100%', false)).toEqual(Buffer.from('100%'));
    expect(decodeComponent('a+b', false)).toBe('a+b');
    expect(decodeComponent('a+b', true)).toEqual(Buffer.from('a b'));
  });

  it('routes the endpoints and keeps everything after /subscribe/ as the channel', () => {
    expect(route('/')).toEqual({ kind: 'body' });
    expect(route('/pipeline')).toEqual({ kind: 'pipeline' });
    expect(route('/multi-exec')).toEqual({ kind: 'multi-exec' });
    expect(route('/monitor')).toEqual({ kind: 'monitor' });
    expect(route('/subscribe/a/b%20c')).toEqual({
      kind: 'subscribe',
      pattern: false,
      channel: Buffer.from('a/b c'),
    });
    expect(route('/psubscribe/news.*')).toEqual({ kind: 'subscribe', pattern: true, channel: 'news.*' });
    expect(route('/set/k/v')).toEqual({ kind: 'path', args: ['set', 'k', 'v'] });
  });

  it('appends the body, then query parameters, and never the _token parameter', () => {
    const url = parseUrl('/set/k?EX=100&_token=secret&NX&note=a%20b');
    expect(url.token).toBe('secret');
    const command = pathCommand(['set', 'k'], Buffer.from('value'), url);
    expect(command.args(0).map(String)).toEqual(['set', 'k', 'value', 'EX', '100', 'NX', 'note', 'a b']);
    expect(command.longestArg).toBe('value'.length);
  });

  it('names every target that opens a stream for the fast path to leave alone', () => {
    const targets = [
      '/monitor',
      '/MONITOR?_token=t',
      '/subscribe/news',
      '/Subscribe/a%20b',
      '/psubscribe/n*',
      '/',
      '/pipeline',
      '/multi-exec',
      '/get/monitor',
      '/subscribe',
      '/set/k/v?ex=1',
    ];
    for (const target of targets) {
      const kind = route(parseUrl(target).path).kind;
      // Every stream is named; a target it names that is not one is only sent the ordinary way.
      if (kind === 'monitor' || kind === 'subscribe') expect(mayOpenStream(target), target).toBe(true);
    }
    expect(targets.filter(mayOpenStream)).toEqual([
      '/monitor',
      '/MONITOR?_token=t',
      '/subscribe/news',
      '/Subscribe/a%20b',
      '/psubscribe/n*',
    ]);
  });
});
