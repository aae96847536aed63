// What `npm start` prints once the local stack is up: where its services listen, and a .env file with its
// credentials (in the console's private data folder, 0600) so one's own app can use them without the
// clipboard. Rewritten on every start: a restarted stack may listen elsewhere (--stack-port 0).
import { join } from 'node:path';
import type { StackStatus } from '../../../shared/stack-status';
import { replacePrivateFile } from '../private-files';

/** The Local profile's .env file in the console's data folder. */
export const LOCAL_ENV_FILE = 'local-stack.env';

export interface ReadyOutputOptions {
  dataDir: string;
  stack: {
    status(): StackStatus;
    on(event: 'change', listener: (status: StackStatus) => void): unknown;
  };
  /** The Local profile as .env text (throws while the stack has not given its credentials). */
  localEnv(): string;
  print(line: string): void;
}

/** Prints the stack's URLs and the .env path each time it becomes ready, and why it failed when it does. */
export function announceLocalStack({ dataDir, stack, localEnv, print }: ReadyOutputOptions): void {
  let last: string | undefined;
  const announce = (status: StackStatus) => {
    const lines = describe(status, dataDir, localEnv);
    if (!lines || lines === last) return;
    last = lines;
    print(lines);
  };
  stack.on('change', announce);
  announce(stack.status());
}

function describe(status: StackStatus, dataDir: string, localEnv: () => string): string | undefined {
  if (status.state === 'failed') return `Local stack failed: ${status.message}`;
  if (status.state !== 'ready' || !status.messagesUrl) return undefined;
  const lines = [
    `Local stack: messages and workflows at ${status.messagesUrl}, ` +
      (status.kvUrl ? `KV at ${status.kvUrl}` : `KV unavailable (${status.kvError ?? 'not started'})`),
  ];
  const file = join(dataDir, LOCAL_ENV_FILE);
  try {
    replacePrivateFile(file, localEnv());
    lines.push(`Local stack credentials for your app (.env, readable by you only): ${file}`);
  } catch (error) {
    lines.push(
      `Local stack credentials: not written (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  return lines.join('\n');
}
