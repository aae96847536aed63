// Small pure helpers of the composer tab.
import type { ComposerModel } from '../../../../../shared/composer/model';
import { buildPublishRequest, type BuiltRequest } from '../../../../../shared/composer/request';

/** Applies a prefill route (`url|group|queue`, value) to a model. */
export function applyPrefill(model: ComposerModel, params: string[]): ComposerModel {
  const [kind, value] = params;
  if (value === undefined) return model;
  if (kind === 'url') return { ...model, destinationKind: 'url', url: value };
  if (kind === 'group') return { ...model, destinationKind: 'group', group: value };
  if (kind === 'queue') return { ...model, destinationKind: 'queue', queue: value };
  return model;
}

export function buildOrNull(model: ComposerModel, now: number): BuiltRequest | null {
  try {
    return buildPublishRequest(model, now);
  } catch {
    return null;
  }
}
