// The one schema for a profile id in procedure inputs. Every procedure that talks to a service takes
// `profileId`, so TanStack Query keys (procedure name + input) are per profile.
import { z } from 'zod';

export const profileIdSchema = z.string().min(1).max(100);
