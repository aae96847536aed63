// The console back end, independent of its front door: profiles and secrets, the local stack
// supervisor, and the bridge router with one handler per procedure. main/electron and main/web each
// create one of these and connect their transport to `router`.
import { join } from 'node:path';
import type { AppInfo } from '../../shared/bridge/procedures/app';
import { LOCAL_PROFILE_ID } from '../../shared/profiles';
import type { StackStatus } from '../../shared/stack-status';
import { createRouter, type Handlers, type Router } from './bridge/router';
import { type Clipboard, currentClipboard } from './clipboard/clipboard';
import { deliverSecret } from './clipboard/secret-output';
import { testConnection } from './http/connection-test';
import { jobHandlers } from './jobs/handlers';
import { JobJournal } from './jobs/journal';
import { JobRunner } from './jobs/runner';
import type { Logger } from './logger';
import { preparePrivateDataDir } from './private-files';
import { ProfileStore } from './profiles/profile-store';
import { ProfilesService } from './profiles/profiles-service';
import type { FileSaver } from './saving/file-saver';
import type { SecretStore } from './secrets/secret-store';
import { StackSupervisor, type StackSupervisorOptions } from './local-stack/supervisor';
import { kvHandlers } from './services/kv';
import { messageHandlers } from './services/messages';
import { workflowHandlers } from './services/workflows';
import { stackClockHandlers } from './services/stack-clock/handlers';

export interface ConsoleCoreOptions {
  /** Where profiles.json lives: made private (0700, files 0600) at start-up. */
  dataDir: string;
  secrets: SecretStore;
  host: AppInfo['host'];
  version: string;
  stack: StackSupervisorOptions;
  logger: Logger;
  /** Defaults to the installed clipboard (Electron) or the OS tools (browser host). */
  clipboard?: () => Clipboard;
  /**
   * Where main writes the files the page asks for: each front door decides (a save dialog in Electron, the
   * private exports folder in the browser host); the page never names the place.
   */
  saver: FileSaver;
}

export interface ConsoleCore {
  router: Router;
  profiles: ProfilesService;
  stack: StackSupervisor;
  close(): Promise<void>;
}

export function createConsoleCore(options: ConsoleCoreOptions): ConsoleCore {
  if (!preparePrivateDataDir(options.dataDir).tightened) {
    options.logger.warn(
      `${options.dataDir} is not Switchyard's own folder (it holds other files): its permissions were left as they are; the files Switchyard writes there are still readable by you only.`,
    );
  }
  const clipboard = options.clipboard ?? currentClipboard;
  const saver = options.saver;
  const stack = new StackSupervisor(options.stack);
  const profiles = new ProfilesService(
    new ProfileStore(join(options.dataDir, 'profiles.json')),
    options.secrets,
    () => stack.endpoints(),
    () => stack.status(),
  );
  // The local stack is the default environment: start it whenever Local is the active profile.
  if (profiles.activeId === LOCAL_PROFILE_ID) stack.ensureStarted();

  // One runner and one journal for the jobs of every service.
  const jobs = new JobRunner(
    new JobJournal(join(options.dataDir, 'jobs'), { warn: (message) => options.logger.warn(message) }),
    {
      profileName: (profileId) => profiles.resolve(profileId).settings.name,
      logError: (message, error) => options.logger.error({ err: error }, message),
    },
  );

  const serviceDeps = {
    profiles,
    jobs,
    dataDir: options.dataDir,
    clipboard,
    saver,
    warn: (message: string) => options.logger.warn(message),
    logError: (message: string, error: unknown) => options.logger.error({ err: error }, message),
  };

  const handlers: Handlers = {
    'app.info': () => ({
      version: options.version,
      host: options.host,
      platform: process.platform,
      secretStorage: { kind: options.secrets.kind, description: options.secrets.description },
      fileSaving: saver.saving,
    }),

    'profiles.list': () => profiles.list(),
    'profiles.create': ({ settings, secrets }) => profiles.create(settings, secrets),
    'profiles.update': ({ id, settings, secrets }) => profiles.update(id, settings, secrets),
    'profiles.duplicate': ({ id }) => profiles.duplicate(id),
    'profiles.delete': ({ id }) => {
      profiles.delete(id);
      return { deleted: id };
    },
    'profiles.activate': ({ id }) => {
      profiles.activate(id);
      if (id === LOCAL_PROFILE_ID) stack.ensureStarted();
      return profiles.list();
    },
    'profiles.testConnection': ({ id, service }) => testConnection(profiles.resolve(id), service),
    'profiles.export': ({ ids }) => profiles.exportProfiles(ids),
    'profiles.import': ({ data }) => ({ imported: profiles.importProfiles(data) }),
    'profiles.copyLocalEnv': ({ to }) => {
      const { text, masked } = profiles.localEnv();
      return deliverSecret(
        { text, masked, what: 'the local stack credentials (.env)', defaultName: 'switchyard-local.env' },
        to,
        { clipboard, saver },
      );
    },

    'stack.status': () => stack.status(),
    'stack.restart': () => stack.restart(),
    'stack.watch': (_input, sink) => {
      sink.push(stack.status());
      const onChange = (status: StackStatus) => sink.push(status);
      stack.on('change', onChange);
      return () => stack.off('change', onChange);
    },
    ...stackClockHandlers({ profiles }),

    ...jobHandlers(jobs, { saver }),

    // One composition point per service (services/<service>/index.ts), each handed the same things.
    ...messageHandlers(serviceDeps),
    ...workflowHandlers(serviceDeps),
    ...kvHandlers(serviceDeps),
  };

  const router = createRouter({
    handlers,
    isReadOnly: (profileId) => profiles.isReadOnly(profileId),
    logError: (message, error) => options.logger.error({ err: error }, message),
  });

  return {
    router,
    profiles,
    stack,
    close: () => stack.stop(),
  };
}
