// What every service's handlers are built from: the profiles that resolve a call's `profileId` (its URL
// and tokens) and, for the ones that run long jobs, where an unexpected error is logged.
import type { ProfilesService } from '../profiles/profiles-service';

export interface HandlerDeps {
  profiles: Pick<ProfilesService, 'resolve'>;
  logError?: (message: string, error: unknown) => void;
}

/** The handlers that also keep files in the console's data folder. */
export interface StoringHandlerDeps extends HandlerDeps {
  /** The console's data folder. */
  dataDir: string;
  /** Told when a stored file could not be read (it is moved aside, not overwritten). */
  warn?: (message: string) => void;
}
