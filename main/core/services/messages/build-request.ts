// The composer's model → the exact request, with the composer's problems as INVALID_INPUT field errors.
import { BridgeError } from '../../../../shared/bridge/errors';
import type { ComposerModel } from '../../../../shared/composer/model';
import { type BuiltRequest, buildPublishRequest, ComposerError } from '../../../../shared/composer/request';

export function build(model: ComposerModel, now: number): BuiltRequest {
  try {
    return buildPublishRequest(model, now);
  } catch (error) {
    if (error instanceof ComposerError) {
      throw new BridgeError({ code: 'INVALID_INPUT', message: error.message, fields: { ...error.fields } });
    }
    throw error;
  }
}
