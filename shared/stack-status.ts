// State of the local stack process as main supervises it.
export type StackState = 'stopped' | 'starting' | 'ready' | 'failed' | 'unavailable';

export interface StackStatus {
  state: StackState;
  /** One sentence for the UI: why it failed, what is missing, what it is doing. */
  message: string;
  /** Message + workflow API and KV REST URLs, when ready. */
  messagesUrl?: string;
  kvUrl?: string;
  /** Set when the stack runs but its KV service could not start (e.g. redis-server missing). */
  kvError?: string;
  dataDir?: string;
  pid?: number;
  startedAt?: number;
  /** The last lines the process wrote (stderr and stdout), newest last. */
  log: string[];
}
