// Commands of Redis versions newer than the one running. The hosted service speaks Redis up to 8.2, so apps
// (and the SDK's tests) use hash-field expiry, HGETEX, XDELEX…; Debian's redis-server 7.0 answers "unknown
// command", which reads like a typo. Say what is missing instead: "ERR 'HEXPIRE' needs Redis 7.4; this server
// is 7.0.15".
import type { RespArg } from './resp';

/** Commands by the Redis version that introduced them (lower-case names). */
const INTRODUCED: Record<string, string> = {};
for (const [version, names] of [
  [
    '7.4',
    [
      'hexpire',
      'hpexpire',
      'hexpireat',
      'hpexpireat',
      'httl',
      'hpttl',
      'hexpiretime',
      'hpexpiretime',
      'hpersist',
    ],
  ],
  [
    '8.0',
    [
      'hgetdel',
      'hgetex',
      'hsetex',
      'vadd',
      'vcard',
      'vdim',
      'vemb',
      'vgetattr',
      'vinfo',
      'vlinks',
      'vrandmember',
      'vrem',
      'vsetattr',
      'vsim',
    ],
  ],
  ['8.2', ['xackdel', 'xdelex']],
] as const) {
  for (const name of names) INTRODUCED[name] = version;
}

/** BITOP operations added after 7.0 (Redis answers them with a bare "syntax error"). */
const BITOP_OPERATIONS: Record<string, string> = { diff: '8.2', diff1: '8.2', andor: '8.2', one: '8.2' };

function word(arg: RespArg | undefined): string {
  if (arg === undefined) return '';
  return (typeof arg === 'string' ? arg : arg.toString('latin1')).toLowerCase();
}

function newer(required: string, running: string | undefined): boolean {
  if (!running) return true;
  const [a = 0, b = 0] = required.split('.').map(Number);
  const [x = 0, y = 0] = running.split('.').map(Number);
  return x < a || (x === a && y < b);
}

/** Whether `name` came with a Redis newer than `version` (unknown: assumed older). */
export function isNewerCommand(name: string, version: string | undefined): boolean {
  const required = INTRODUCED[name];
  return required !== undefined && newer(required, version);
}

/**
 * Redis's error for a command, or a clearer one when the command (or a BITOP operation) belongs to a newer
 * Redis than `version`. `args` is only read for BITOP.
 */
export function explainNewerCommand(
  name: string,
  message: string,
  args: () => readonly RespArg[],
  version: string | undefined,
): string {
  const running = version ? `; this server is ${version}` : '';
  if (message.startsWith('ERR unknown command')) {
    if (isNewerCommand(name, version))
      return `ERR '${name.toUpperCase()}' needs Redis ${INTRODUCED[name]}${running}`;
  } else if (name === 'bitop' && message === 'ERR syntax error') {
    const operation = word(args()[1]);
    const required = BITOP_OPERATIONS[operation];
    if (required && newer(required, version)) {
      return `ERR BITOP ${operation.toUpperCase()} needs Redis ${required}${running}`;
    }
  }
  return message;
}

/** `redis_version:7.0.15` from an INFO server reply. */
export function versionFromInfo(info: string): string | undefined {
  return /^redis_version:(\S+)/m.exec(info)?.[1];
}
