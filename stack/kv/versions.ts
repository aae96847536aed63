// Commands of Redis versions newer than the one running. The hosted service speaks Redis up to 8.2, so apps
// (and the SDK's tests) use hash-field expiry, HGETEX, XDELEX…; Debian's redis-server 7.0 answers "unknown
// command", which reads like a typo. Some are emulated (hash-expiry/ and json/lua-newer.ts: the bridge asks
// isNewerCommand / isNewerBitop whether to); for the rest say what is missing: "ERR 'HEXPIRE' needs Redis 7.4; this server is
// 7.0.15".
/**
 * Commands by the Redis version that introduced them (lower-case names). A Map, not an object: a client may
 * send any name, `constructor` and `__proto__` included.
 */
const INTRODUCED = new Map<string, string>();
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
  for (const name of names) INTRODUCED.set(name, version);
}

/** BITOP operations added after 7.0 (Redis answers them with a bare "syntax error"; the bridge emulates them). */
const BITOP_OPERATIONS = new Map([
  ['diff', '8.2'],
  ['diff1', '8.2'],
  ['andor', '8.2'],
  ['one', '8.2'],
]);

function newer(required: string, running: string | undefined): boolean {
  if (!running) return true;
  const [a = 0, b = 0] = required.split('.').map(Number);
  const [x = 0, y = 0] = running.split('.').map(Number);
  return x < a || (x === a && y < b);
}

/** Whether BITOP `operation` (any case) came with a Redis newer than `version` (unknown: assumed older). */
export function isNewerBitop(operation: string, version: string | undefined): boolean {
  const required = BITOP_OPERATIONS.get(operation.toLowerCase());
  return required !== undefined && newer(required, version);
}

/** Whether `name` came with a Redis newer than `version` (unknown: assumed older). */
export function isNewerCommand(name: string, version: string | undefined): boolean {
  const required = INTRODUCED.get(name);
  return required !== undefined && newer(required, version);
}

/**
 * Redis's error for a command, or a clearer one when the command belongs to a newer Redis than `version`
 * (the newer commands the bridge emulates never get here: json/lua-newer.ts).
 */
export function explainNewerCommand(name: string, message: string, version: string | undefined): string {
  if (message.startsWith('ERR unknown command') && isNewerCommand(name, version)) {
    const running = version ? `; this server is ${version}` : '';
    return `ERR '${name.toUpperCase()}' needs Redis ${INTRODUCED.get(name)}${running}`;
  }
  return message;
}

/** `redis_version:7.0.15` from an INFO server reply. */
export function versionFromInfo(info: string): string | undefined {
  return /^redis_version:(\S+)/m.exec(info)?.[1];
}
