// A query is asked again once only when the failure may pass: never after a refusal, a missing setting
// or a timeout (that would double the wait and the requests for the same answer).
import { describe, expect, it } from 'vitest';
import { BridgeError, type BridgeErrorCode } from '../../../shared/bridge/errors';
import { retryOnce } from './retry';

/** [code, HTTP status] of a failed call. */
type Failure = [BridgeErrorCode, number?];

const MAY_PASS: Failure[] = [
  ['UNREACHABLE'],
  ['SERVICE_ERROR', 500],
  ['SERVICE_ERROR', 503],
  ['SERVICE_ERROR', 429],
];
const SAME_AGAIN: Failure[] = [
  ['TIMEOUT'],
  ['SERVICE_ERROR', 401],
  ['SERVICE_ERROR', 403],
  ['SERVICE_ERROR', 404],
  ['SERVICE_ERROR', 400],
  ['NOT_CONFIGURED'],
  ['INVALID_INPUT'],
  ['INTERNAL'],
];

const failed = ([code, status]: Failure) =>
  new BridgeError({ code, status, message: `${code} ${status ?? ''}` });

describe('retryOnce', () => {
  it('asks once more after a refused connection or a failure on the service’s side', () => {
    for (const failure of MAY_PASS.map(failed)) {
      expect(retryOnce(0, failure), failure.message).toBe(true);
      expect(retryOnce(1, failure), failure.message).toBe(false);
    }
  });

  it('does not ask again after a timeout, a refusal, or what no second try changes', () => {
    for (const failure of [...SAME_AGAIN.map(failed), new Error('not a bridge error')]) {
      expect(retryOnce(0, failure), failure.message).toBe(false);
    }
  });
});
