// What every service's handlers are built from: the profiles that resolve a call's `profileId` (its URL
// and tokens), where an unexpected error is logged, and for the services with bulk work the one job
// runner their plans run on.
import type { JobRunner } from '../jobs/runner';
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

/** The handlers that contribute job plans (main/core/jobs). */
export interface JobHandlerDeps extends HandlerDeps {
  jobs: JobRunner;
}
