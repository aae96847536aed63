// Command-line flags of `npm run stack`.
import { tryParseDuration } from '../shared/duration';
import type { Durability } from './store/db';

export interface StackArgs {
  host: string;
  port: number;
  kvPort: number;
  dataDir?: string;
  redisUrl?: string;
  /** Host names accepted besides loopback ones (a tunnel to receive webhooks, say). */
  allowedHosts: string[];
  randomCredentials: boolean;
  maxBody: number;
  maxConcurrency: number;
  backoffFactor: number;
  defaultTimeoutMs: number;
  retentionMs: number;
  /** How long a DLQ entry is kept (the real service's is plan-based: 3 days to 3 months). */
  dlqRetentionMs: number;
  durability: Durability;
  llmUrl?: string;
  llmKey?: string;
  /** KV: largest request (URL + body) in bytes; `ERR max request size exceeded` beyond it. */
  kvMaxRequestBytes: number;
  /** KV: largest Redis reply passed on, in bytes; `ERR max reply size exceeded` beyond it. */
  kvMaxReplyBytes: number;
  /** KV: commands per UTC day before `ERR max daily request limit exceeded`; undefined = no limit. */
  kvDailyLimit?: number;
  /** Shut down when stdin closes: set by a supervisor (the console) so its death never orphans the stack. */
  exitWithStdin: boolean;
  /** Run the hot paths before the ready line (default); `--no-warm-up` is for measuring what it buys. */
  warmUp: boolean;
  logLevel: string;
  help: boolean;
}

export const USAGE = `usage: npm run stack -- [options]

  --host HOST               interface to bind (default 127.0.0.1; anything else needs --random-credentials)
  --port N                  message + workflow API port (default 8080; 0 picks a free port)
  --kv-port N               KV REST port (default 8079; 0 picks a free port)
  --data-dir DIR            where state lives (default: the OS app-data folder)
  --redis-url URL           use this Redis for KV instead of starting redis-server
                            (or SWITCHYARD_REDIS_URL, which keeps a password in it off the command line)
  --random-credentials      fresh token and signing keys (persisted) instead of the dev-server defaults
  --allow-host NAME         also accept requests addressed to NAME (repeatable; e.g. a tunnel's host name)
  --max-body SIZE           request body limit, bytes or with kb/mb (default 1mb)
  --max-concurrency N       deliveries in flight at once (default 256)
  --backoff-factor K        default retry backoff min(86400, e^(K*n)) seconds (default 2.5)
  --default-timeout DUR     delivery timeout without Upstash-Timeout (default 5m)
  --retention DUR           how long logs and finished messages are kept (default 7d)
  --dlq-retention DUR       how long DLQ entries are kept, message and workflow (default 7d)
  --durability normal|full  normal (default): acknowledged = written to the WAL, fsynced within ~0.1 s;
                            full: fsync before every acknowledgement
  --no-warm-up              report ready without first running the hot paths (slower first second; for benchmarks)
  --llm-url URL             OpenAI-compatible base URL for api/llm (e.g. http://127.0.0.1:11434/v1)
  --llm-key KEY             bearer token for --llm-url (or SWITCHYARD_LLM_KEY, off the command line)
  --kv-max-request-size SIZE  KV request size limit, bytes or with kb/mb (default 10mb)
  --kv-max-reply-size SIZE  KV reply size limit, bytes or with kb/mb (default 128mb)
  --kv-daily-limit N        KV commands per UTC day before requests are refused (default: no limit)
  --exit-with-stdin         shut down when stdin closes (used by the console, which supervises the stack)
  --log-level LEVEL         pino level for stderr logs (default info)
`;

export class ArgsError extends Error {}

function port(flag: string, value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65535)
    throw new ArgsError(`${flag} must be a port from 0 to 65535, got '${value}'`);
  return Number(value);
}

function size(flag: string, value: string): number {
  const match = /^(\d+)\s*(b|kb|k|mb|m)?$/i.exec(value.trim());
  if (!match) throw new ArgsError(`${flag} must be a size like 1048576, 512kb or 1mb, got '${value}'`);
  const unit = (match[2] ?? 'b').toLowerCase();
  const bytes = Number(match[1]) * (unit.startsWith('m') ? 1_048_576 : unit.startsWith('k') ? 1_024 : 1);
  if (bytes < 1) throw new ArgsError(`${flag} must be at least 1 byte`);
  return bytes;
}

function duration(flag: string, value: string): number {
  const parsed = tryParseDuration(value);
  if (!parsed.ok) throw new ArgsError(`${flag}: ${parsed.error}`);
  if (parsed.ms <= 0) throw new ArgsError(`${flag} must be longer than 0s`);
  return parsed.ms;
}

/** Reads one flag's value into the arguments (`flag` names it in error messages). */
type ReadValue = (args: StackArgs, value: string, flag: string) => void;

/** Flags that take a value (`--flag value` or `--flag=value`). */
const VALUE_FLAGS: Record<string, ReadValue> = {
  '--host': (args, value) => {
    if (value === '') throw new ArgsError('--host must not be empty');
    args.host = value;
  },
  '--port': (args, value, flag) => (args.port = port(flag, value)),
  '--kv-port': (args, value, flag) => (args.kvPort = port(flag, value)),
  '--data-dir': (args, value) => (args.dataDir = value),
  '--redis-url': (args, value) => (args.redisUrl = value),
  '--allow-host': (args, value) => {
    const text = value.trim().toLowerCase();
    if (!/^[a-z0-9.-]+$/.test(text)) throw new ArgsError(`--allow-host takes a host name, got '${text}'`);
    args.allowedHosts.push(text);
  },
  '--max-body': (args, value, flag) => (args.maxBody = size(flag, value)),
  '--max-concurrency': (args, value) => {
    if (!/^\d+$/.test(value) || Number(value) < 1)
      throw new ArgsError(`--max-concurrency must be at least 1, got '${value}'`);
    args.maxConcurrency = Number(value);
  },
  '--backoff-factor': (args, value) => {
    const factor = Number(value);
    if (value.trim() === '' || !Number.isFinite(factor) || factor <= 0 || factor > 20) {
      throw new ArgsError(`--backoff-factor must be a number above 0 (e.g. 2 or 2.5), got '${value}'`);
    }
    args.backoffFactor = factor;
  },
  '--default-timeout': (args, value, flag) => (args.defaultTimeoutMs = duration(flag, value)),
  '--retention': (args, value, flag) => (args.retentionMs = duration(flag, value)),
  '--dlq-retention': (args, value, flag) => (args.dlqRetentionMs = duration(flag, value)),
  '--durability': (args, value) => {
    if (value !== 'full' && value !== 'normal')
      throw new ArgsError(`--durability must be normal or full, got '${value}'`);
    args.durability = value;
  },
  '--llm-url': (args, value) => {
    if (!/^https?:\/\/[^/]/.test(value))
      throw new ArgsError(`--llm-url must be an http(s) URL, got '${value}'`);
    args.llmUrl = value;
  },
  '--llm-key': (args, value) => (args.llmKey = value),
  '--kv-max-request-size': (args, value, flag) => (args.kvMaxRequestBytes = size(flag, value)),
  '--kv-max-reply-size': (args, value, flag) => (args.kvMaxReplyBytes = size(flag, value)),
  '--kv-daily-limit': (args, value) => {
    if (!/^\d+$/.test(value) || Number(value) < 1)
      throw new ArgsError(`--kv-daily-limit must be a whole number of commands, at least 1, got '${value}'`);
    args.kvDailyLimit = Number(value);
  },
  '--log-level': (args, value) => {
    if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(value)) {
      throw new ArgsError(`--log-level must be one of fatal, error, warn, info, debug, trace, silent`);
    }
    args.logLevel = value;
  },
};

/** Flags without a value. */
const SWITCHES: Record<string, (args: StackArgs) => void> = {
  '--random-credentials': (args) => (args.randomCredentials = true),
  '--no-warm-up': (args) => (args.warmUp = false),
  '--exit-with-stdin': (args) => (args.exitWithStdin = true),
  '--help': (args) => (args.help = true),
  '-h': (args) => (args.help = true),
};

/**
 * The secrets a flag may carry can come from the environment instead: any local user can read a process's
 * command line (`ps`), but not its environment. A flag given on the command line wins.
 */
const SECRET_ENV: readonly { name: string; set: (args: StackArgs, value: string) => void }[] = [
  { name: 'SWITCHYARD_REDIS_URL', set: (args, value) => (args.redisUrl ??= value) },
  { name: 'SWITCHYARD_LLM_KEY', set: (args, value) => (args.llmKey ??= value) },
];

export function parseArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): StackArgs {
  const args: StackArgs = {
    host: '127.0.0.1',
    port: 8080,
    kvPort: 8079,
    allowedHosts: [],
    randomCredentials: false,
    maxBody: 1_048_576,
    maxConcurrency: 256,
    backoffFactor: 2.5,
    defaultTimeoutMs: 300_000,
    retentionMs: 7 * 86_400_000,
    dlqRetentionMs: 7 * 86_400_000,
    durability: 'normal',
    kvMaxRequestBytes: 10 * 1_048_576,
    kvMaxReplyBytes: 128 * 1_048_576,
    exitWithStdin: false,
    warmUp: true,
    logLevel: 'info',
    help: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const eq = arg.indexOf('=');
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const readValue = Object.hasOwn(VALUE_FLAGS, flag) ? VALUE_FLAGS[flag] : undefined;
    const setSwitch = Object.hasOwn(SWITCHES, flag) ? SWITCHES[flag] : undefined;
    if (readValue) {
      const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined) throw new ArgsError(`${flag} needs a value`);
      readValue(args, value, flag);
    } else if (setSwitch) {
      setSwitch(args);
    } else {
      throw new ArgsError(`unknown option '${arg}'`);
    }
  }
  for (const { name, set } of SECRET_ENV) {
    const value = env[name];
    if (value !== undefined && value !== '') set(args, value);
  }
  return args;
}
