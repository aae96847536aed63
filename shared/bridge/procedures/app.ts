import { z } from 'zod';
import { call } from '../define';

export interface AppInfo {
  version: string;
  /** Which front door carries the bridge. */
  host: 'electron' | 'browser';
  platform: string;
  /** Where secrets are kept, said plainly in the UI. */
  secretStorage: {
    kind: 'os-encryption' | 'file';
    description: string;
  };
}

export const appProcedures = {
  'app.info': call<AppInfo>()(z.object({})),
};
