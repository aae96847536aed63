// The Local profile as .env: the SDKs' variable names, the real values in the text, masked ones in what
// the renderer gets, and a readable refusal while the stack has not given them.
import { parseEnv } from 'node:util';
import { describe, expect, it } from 'vitest';
import { maskSecret } from '../secrets/secret-store';
import { localEnvFile } from './local-env';

const local = {
  messagesUrl: 'http://127.0.0.1:8080',
  kvUrl: 'http://127.0.0.1:8079',
  secrets: {
    messageToken: 'qstash-token-SECRET-1',
    currentSigningKey: 'sig_current_SECRET_2',
    nextSigningKey: 'sig_next_SECRET_3',
    kvToken: 'kv-token-SECRET-4',
    kvReadOnlyToken: 'kv-ro-SECRET-5',
  },
};

describe('localEnvFile', () => {
  it('writes the variables the Upstash SDKs read; the masked copy holds no secret', () => {
    const { text, masked } = localEnvFile(local, maskSecret);
    expect(parseEnv(text)).toEqual({
      QSTASH_URL: 'http://127.0.0.1:8080',
      QSTASH_TOKEN: 'qstash-token-SECRET-1',
      QSTASH_CURRENT_SIGNING_KEY: 'sig_current_SECRET_2',
      QSTASH_NEXT_SIGNING_KEY: 'sig_next_SECRET_3',
      UPSTASH_REDIS_REST_URL: 'http://127.0.0.1:8079',
      UPSTASH_REDIS_REST_TOKEN: 'kv-token-SECRET-4',
    });
    expect(masked).not.toMatch(/SECRET/);
    expect(masked).toContain('QSTASH_URL=http://127.0.0.1:8080');
  });

  it('refuses while the stack is not running or lacks a value', () => {
    expect(() => localEnvFile(null, maskSecret)).toThrow(/not running yet/);
    expect(() =>
      localEnvFile({ ...local, secrets: { ...local.secrets, kvToken: undefined } }, maskSecret),
    ).toThrow('The local stack did not give UPSTASH_REDIS_REST_TOKEN: restart it on the Local stack page.');
  });
});
