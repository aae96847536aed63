// `npm run stack -- [options]`: runs the local stack until SIGINT/SIGTERM. Prints exactly one line on stdout,
// a JSON object beginning {"ready":true, once both services are up; everything else (pino logs) goes to stderr.
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import pino from 'pino';
import { BROWSER_HOST_NODE, nodeVersionProblem } from '../scripts/node-version.mjs';
import { ArgsError, parseArgs, USAGE, type StackArgs } from './args';
import { startStack, StackConfigError, type Stack } from './stack';
import { DataDirBusyError } from './data-dir';
import { addressInUseHint, findPortHolder } from './port-holder';
import { startCheckpointerThread, startWriterThread, type WriterThreadData } from './writer-thread';

async function main(): Promise<void> {
  const tooOld = nodeVersionProblem('local stack', BROWSER_HOST_NODE);
  if (tooOld) {
    process.stderr.write(`stack: ${tooOld}\n`);
    process.exit(1);
  }
  let args: StackArgs;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof ArgsError)) throw error;
    process.stderr.write(`stack: ${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (args.help) {
    process.stderr.write(USAGE);
    return;
  }
  // Bundled code: no pino transports (worker threads); write JSON lines straight to fd 2, synchronously, so
  // that nothing logged before process.exit() is lost in an asynchronous write.
  const destination = pino.destination({ dest: 2, sync: true });
  const logger = pino({ level: args.logLevel, base: { pid: process.pid } }, destination);
  /** Every exit after logging goes through here: the last lines ("stopped") reach stderr first. */
  function exit(code: number): never {
    destination.flushSync();
    process.exit(code);
  }
  // Signal handlers come first: a signal that arrives while starting still shuts down cleanly.
  let stack: Stack | undefined;
  let stopping = false;
  const shutdown = (): void => {
    if (!stack) return;
    stack
      .close()
      .then(() => {
        logger.info('stopped');
        exit(0);
      })
      .catch((error: unknown) => {
        logger.error({ err: error }, 'unclean shutdown');
        exit(1);
      });
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting now');
      exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down');
    shutdown();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  if (args.exitWithStdin) {
    // The supervising console holds our stdin open and never writes to it: EOF means it is gone (even
    // killed with SIGKILL), and a stack nobody supervises must not keep the ports and the data dir.
    process.stdin.on('end', () => {
      if (stopping) return;
      stopping = true;
      logger.info('stdin closed: the supervising console is gone; shutting down');
      shutdown();
    });
    process.stdin.resume();
  }

  try {
    // This same file, loaded as a worker thread, is the SQLite writer (see the end of the file).
    stack = await startStack({ ...args, logger, writerScript: __filename });
  } catch (error) {
    const inUse = portInUse(error);
    const known =
      error instanceof StackConfigError || error instanceof DataDirBusyError || inUse !== undefined;
    if (!known) logger.fatal({ err: error }, 'stack failed to start');
    destination.flushSync();
    // A taken port names who holds it and the way out (--port 0), not only EADDRINUSE.
    const text =
      inUse !== undefined
        ? addressInUseHint(inUse, findPortHolder(inUse))
        : error instanceof Error
          ? error.message
          : String(error);
    process.stderr.write(`stack: ${text}\n`);
    exit(known ? 2 : 1);
  }
  if (stopping) {
    shutdown();
    return;
  }
  process.stdout.write(`${JSON.stringify(stack.info)}\n`);
  logger.info({ messages: stack.info.messages.url, dataDir: stack.info.dataDir }, 'stack ready');
}

/** The port of an EADDRINUSE error from listen(), else undefined. */
function portInUse(error: unknown): number | undefined {
  const { code, port } = (error ?? {}) as { code?: unknown; port?: unknown };
  return code === 'EADDRINUSE' && typeof port === 'number' ? port : undefined;
}

// The same file also serves as the SQLite writer and checkpointer threads; in a worker thread it never starts
// a stack, whatever it was asked for.
const role = (workerData as { role?: string } | null)?.role;
if (isMainThread) {
  void main();
} else if (role === 'sqlite-writer' && parentPort) {
  startWriterThread(parentPort, workerData as WriterThreadData);
} else if (role === 'sqlite-checkpointer' && parentPort) {
  startCheckpointerThread(parentPort, workerData as { file: string });
} else {
  throw new Error(`stack/cli loaded in a worker thread with an unknown role '${String(role)}'`);
}
