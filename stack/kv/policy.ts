// Which commands the bridge refuses before they reach Redis, and why.
//
// This is about connections, not permissions: what a token may do is decided by Redis itself (each token
// runs as an ACL user). The bridge refuses only what would change the state of a shared connection, hold
// it (blocking forms), or needs a dedicated endpoint (transactions, pub/sub, MONITOR).
import type { RespArg } from './resp';

export const READ_ONLY_USER = 'default_ro';

/** Lower-case command name (first argument). */
export function commandName(args: readonly RespArg[]): string {
  const first = args[0];
  if (first === undefined) return '';
  return (typeof first === 'string' ? first : first.toString('latin1')).toLowerCase();
}

function argText(arg: RespArg | undefined): string {
  if (arg === undefined) return '';
  return (typeof arg === 'string' ? arg : arg.toString('latin1')).toLowerCase();
}

const CONNECTION_STATE = [
  'select',
  'auth',
  'hello',
  'client',
  'reset',
  'quit',
  'readonly',
  'readwrite',
  'asking',
  // The replication handshake would turn the connection into a replica stream.
  'sync',
  'psync',
  'replconf',
];
const PUBSUB = ['subscribe', 'psubscribe', 'ssubscribe', 'unsubscribe', 'punsubscribe', 'sunsubscribe'];
const BLOCKING = [
  'blpop',
  'brpop',
  'brpoplpush',
  'blmove',
  'blmpop',
  'bzpopmin',
  'bzpopmax',
  'bzmpop',
  'wait',
  'waitaof',
];

type Rule = (args: readonly RespArg[], name: string) => string | undefined;

/**
 * XREAD/XREADGROUP block only with a BLOCK option, which comes before STREAMS. The options are read as
 * Redis reads them, values skipped (`COUNT n`, `GROUP group consumer`), so a group, consumer or count
 * spelled `block` is not taken for the option.
 */
function hasBlockOption(args: readonly RespArg[], name: string): boolean {
  for (let i = 1; i < args.length; i++) {
    const word = argText(args[i]);
    if (word === 'streams') return false;
    if (word === 'block') return true;
    if (word === 'count') i += 1;
    else if (word === 'group' && name === 'xreadgroup') i += 2;
  }
  return false;
}

const blocking: Rule = (_args, name) => `ERR blocking command '${name}' is not supported by the REST API`;

/** The users the bridge itself logs in as. */
const MANAGED_USERS = new Set(['default', READ_ONLY_USER]);

/**
 * The user names an ACL command changes: `SETUSER <user> [rules…]` one, `DELUSER <user> [user…]` all of them.
 * (The other subcommands read users or the whole ACL; `LOAD` re-reads the file the service wrote.) Names are
 * case-sensitive in Redis, so they are compared as sent.
 */
function aclUsersChanged(args: readonly RespArg[]): string[] {
  const sub = argText(args[1]);
  const exact = (arg: RespArg | undefined): string =>
    arg === undefined ? '' : typeof arg === 'string' ? arg : arg.toString('latin1');
  if (sub === 'setuser') return [exact(args[2])];
  if (sub === 'deluser') return args.slice(2).map(exact);
  return [];
}

/** One lookup per command: only the few names listed here need a closer look. */
const RULES = new Map<string, Rule>([
  ...CONNECTION_STATE.map((name): [string, Rule] => [
    name,
    () => `ERR '${name}' is not supported by the REST API: it changes the state of the connection`,
  ]),
  ...['multi', 'exec'].map((name): [string, Rule] => [
    name,
    () => `ERR '${name}' is not supported as a command: send the whole transaction to /multi-exec`,
  ]),
  ...['discard', 'watch', 'unwatch'].map((name): [string, Rule] => [
    name,
    () => `ERR '${name}' is not supported by the REST API`,
  ]),
  ...PUBSUB.map((name): [string, Rule] => [
    name,
    () =>
      `ERR '${name}' is not supported as a command: use POST /${name.startsWith('p') ? 'psubscribe' : 'subscribe'}/<channel> (server-sent events)`,
  ]),
  ['monitor', () => `ERR 'monitor' is not supported as a command: use POST /monitor (server-sent events)`],
  ...BLOCKING.map((name): [string, Rule] => [name, blocking]),
  ['xread', (args, name) => (hasBlockOption(args, name) ? blocking(args, name) : undefined)],
  ['xreadgroup', (args, name) => (hasBlockOption(args, name) ? blocking(args, name) : undefined)],
  [
    'acl',
    (args) => {
      // The bridge logs in as these users; changing them would lock every token out. Every user name a
      // changing subcommand takes is checked (DELUSER takes several), exactly as Redis compares them.
      const user = aclUsersChanged(args).find((name) => MANAGED_USERS.has(name));
      if (user !== undefined) {
        return `ERR the ACL user '${user}' is managed by the KV service and cannot be changed through it`;
      }
      return undefined;
    },
  ],
  [
    'config',
    (args) => {
      if (argText(args[1]) !== 'set') return undefined;
      for (let i = 2; i < args.length; i += 2) {
        if (argText(args[i]) === 'requirepass') {
          return `ERR 'requirepass' is managed by the KV service and cannot be changed through it`;
        }
      }
      return undefined;
    },
  ],
]);

/** Whether `refusal` (or RESTTOKEN interception) needs to look at this command's arguments at all. */
export function hasRule(name: string): boolean {
  return RULES.has(name);
}

/**
 * The ERR text for a command the bridge will not pass through, or undefined. Pass `name` when it is
 * already known (it is looked up once per command on the hot path).
 */
export function refusal(args: readonly RespArg[], name = commandName(args)): string | undefined {
  const rule = RULES.get(name);
  return rule ? rule(args, name) : undefined;
}

/** `ACL RESTTOKEN <user> <password>`: answered by the bridge, never sent to Redis. */
export function isRestTokenCommand(args: readonly RespArg[], name = commandName(args)): boolean {
  return name === 'acl' && argText(args[1]) === 'resttoken';
}

/** After these succeed on a managed Redis, the ACL file is saved so users (and their tokens) persist. */
export function changesAclUsers(args: readonly RespArg[], name = commandName(args)): boolean {
  if (name !== 'acl') return false;
  const sub = argText(args[1]);
  return sub === 'setuser' || sub === 'deluser';
}
