// A query is asked again once only when the failure may pass: never after a refusal, a missing setting
// or a timeout (that would double the wait and the requests for the same answer).
import { describe, expect, it } from 'vitest';
import { BridgeError, type BridgeErrorData } from '../../../shared/bridge/errors';
import { retryOnce } from './retry';

const error = (data: BridgeErrorData) => new BridgeError(data);

describe('retryOnce', () => {
  it('asks once more after a refused connection or a failure on the service’s side', () => {
    for (const failure of [
      error({ code: 'UNREACHABLE', message: 'Connection refused by 127.0.0.1:9' }),
      error({ code: 'SERVICE_ERROR', status: 500, message: 'internal error' }),
      error({ code: 'SERVICE_ERROR', status: 503, message: 'unavailable' }),
      error({ code: 'SERVICE_ERROR', status: 429, message: 'too many requests' }),
    ]) {
      expect(retryOnce(0, failure), failure.message).toBe(true);
      expect(retryOnce(1, failure), failure.message).toBe(false);
    }
  });

  it('does not ask again after a timeout, a refusal, or what no second try changes', () => {
    for (const failure of [
      error({ code: 'TIMEOUT', message: 'No response from 127.0.0.1:8080 within 30 s' }),
      error({ code: 'SERVICE_ERROR', status: 401, message: 'invalid token' }),
      error({ code: 'SERVICE_ERROR', status: 403, message: 'forbidden' }),
      error({ code: 'SERVICE_ERROR', status: 404, message: 'no such run' }),
      error({ code: 'SERVICE_ERROR', status: 400, message: 'bad filter' }),
      error({ code: 'NOT_CONFIGURED', message: 'no token' }),
      error({ code: 'INVALID_INPUT', message: 'bad input' }),
      error({ code: 'INTERNAL', message: 'bug' }),
      new Error('not a bridge error'),
    ]) {
      expect(retryOnce(0, failure), failure.message).toBe(false);
    }
  });
});
