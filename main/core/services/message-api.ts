// Kept for main/core/services/workflows (owned by another change) until it imports the shared transport
// from http/service-api.ts with messages/client.ts's messageEndpoint().
import { ServiceApi } from '../http/service-api';
import type { ResolvedProfile } from '../profiles/profiles-service';
import { messageEndpoint } from './messages/client';

export type { QueryValue } from '../http/service-api';

/** The message API's transport for a profile (the workflow service shares its host and token). */
export class MessageApi extends ServiceApi {
  constructor(profile: ResolvedProfile) {
    super(messageEndpoint(profile));
  }
}
