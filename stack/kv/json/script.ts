// The JSON script: RedisJSON's commands as one Lua script inside redis-server (issue 23). Debian's
// redis-server 7.0 has no JSON module and none can be installed, so the bridge runs each JSON.* command as
// EVALSHA (writes) or EVALSHA_RO (reads) of this script: atomic under concurrent clients, with the document
// stored in Redis itself (persisted with the rest of the data). The parts are Lua source in TS modules so
// the bundles carry them; they are joined in this order.
import { createHash } from 'node:crypto';

import { LUA_COMMANDS } from './lua-commands';
import { LUA_PATHS } from './lua-paths';
import { LUA_PRELUDE } from './lua-prelude';
import { LUA_REGEX } from './lua-regex';
import { LUA_VALUES } from './lua-values';

export const JSON_SCRIPT = [LUA_PRELUDE, LUA_VALUES, LUA_REGEX, LUA_PATHS, LUA_COMMANDS].join('\n');

export const JSON_SCRIPT_SHA = createHash('sha1').update(JSON_SCRIPT).digest('hex');

/** The hash field that holds a JSON document's text (a key is JSON when it is a hash with this field). */
export const JSON_FIELD = 'ReJSON-RL';

/** What TYPE answers for a JSON key (RedisJSON's module type name). */
export const JSON_TYPE = 'ReJSON-RL';
