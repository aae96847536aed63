// The bundled command table of the KV workbench: names, argument syntax, a one-line summary, the group and
// whether a command writes. Used for autocomplete and inline docs when the server does not answer
// `COMMAND DOCS` (the hosted service refuses it), and by main to refuse writes for a read-only profile that
// has no read-only token. Pure data; no Node, no DOM.

export interface CommandDoc {
  name: string;
  /** Argument syntax after the name, redis-cli style: `key [EX seconds|PX ms] …`. */
  args: string;
  summary: string;
  group: string;
  /** Changes data (or server state) — refused for read-only profiles. */
  write: boolean;
}

// name | group | w(rite) or r(ead) | args | summary
const TABLE = `
APPEND|string|w|key value|Appends a value to a string; returns the new length
DECR|string|w|key|Decrements the integer value of a key by one
DECRBY|string|w|key decrement|Decrements the integer value of a key by a number
GET|string|r|key|Returns the string value of a key
GETDEL|string|w|key|Returns the string value of a key and deletes it
GETEX|string|w|key [EX seconds|PX ms|EXAT ts|PXAT ts|PERSIST]|Returns the value of a key and sets or clears its expiry
GETRANGE|string|r|key start end|Returns a substring of a string value
GETSET|string|w|key value|Sets a new value and returns the old one
INCR|string|w|key|Increments the integer value of a key by one
INCRBY|string|w|key increment|Increments the integer value of a key by a number
INCRBYFLOAT|string|w|key increment|Increments the float value of a key by a number
MGET|string|r|key [key …]|Returns the values of several keys
MSET|string|w|key value [key value …]|Sets several keys at once
MSETNX|string|w|key value [key value …]|Sets several keys only if none of them exists
PSETEX|string|w|key milliseconds value|Sets a value with an expiry in milliseconds
SET|string|w|key value [NX|XX] [GET] [EX seconds|PX ms|EXAT ts|PXAT ts|KEEPTTL]|Sets the string value of a key
SETEX|string|w|key seconds value|Sets a value with an expiry in seconds
SETNX|string|w|key value|Sets a value only if the key does not exist
SETRANGE|string|w|key offset value|Overwrites part of a string at an offset
STRLEN|string|r|key|Returns the length of a string value
BITCOUNT|bitmap|r|key [start end [BYTE|BIT]]|Counts set bits in a string
BITOP|bitmap|w|AND|OR|XOR|NOT|DIFF|DIFF1|ANDOR|ONE destkey key [key …]|Bitwise operation between strings (DIFF, DIFF1, ANDOR, ONE: Redis 8.2)
BITPOS|bitmap|r|key bit [start [end [BYTE|BIT]]]|Finds the first set or clear bit
GETBIT|bitmap|r|key offset|Returns a bit value at an offset
SETBIT|bitmap|w|key offset value|Sets or clears the bit at an offset
HDEL|hash|w|key field [field …]|Deletes fields from a hash
HEXISTS|hash|r|key field|Whether a field exists in a hash
HEXPIRE|hash|w|key seconds [NX|XX|GT|LT] FIELDS numfields field [field …]|Sets hash fields' time to live in seconds (Redis 7.4)
HEXPIREAT|hash|w|key unix-time-seconds [NX|XX|GT|LT] FIELDS numfields field [field …]|Sets hash fields' expiry as a Unix time (Redis 7.4)
HEXPIRETIME|hash|r|key FIELDS numfields field [field …]|Returns hash fields' expiry as a Unix time in seconds (Redis 7.4)
HGET|hash|r|key field|Returns the value of a hash field
HGETALL|hash|r|key|Returns all fields and values of a hash
HGETDEL|hash|w|key FIELDS numfields field [field …]|Returns hash fields' values and deletes the fields (Redis 8.0)
HGETEX|hash|w|key [EX seconds|PX ms|EXAT ts|PXAT ts|PERSIST] FIELDS numfields field [field …]|Returns hash fields' values and sets or clears their expiry (Redis 8.0)
HINCRBY|hash|w|key field increment|Increments the integer value of a hash field
HINCRBYFLOAT|hash|w|key field increment|Increments the float value of a hash field
HKEYS|hash|r|key|Returns all fields of a hash
HLEN|hash|r|key|Returns the number of fields in a hash
HMGET|hash|r|key field [field …]|Returns the values of several hash fields
HMSET|hash|w|key field value [field value …]|Sets several hash fields (deprecated: use HSET)
HPERSIST|hash|w|key FIELDS numfields field [field …]|Removes hash fields' expiry (Redis 7.4)
HPEXPIRE|hash|w|key milliseconds [NX|XX|GT|LT] FIELDS numfields field [field …]|Sets hash fields' time to live in milliseconds (Redis 7.4)
HPEXPIREAT|hash|w|key unix-time-ms [NX|XX|GT|LT] FIELDS numfields field [field …]|Sets hash fields' expiry as a Unix time in milliseconds (Redis 7.4)
HPEXPIRETIME|hash|r|key FIELDS numfields field [field …]|Returns hash fields' expiry as a Unix time in milliseconds (Redis 7.4)
HPTTL|hash|r|key FIELDS numfields field [field …]|Returns hash fields' time to live in milliseconds (Redis 7.4)
HRANDFIELD|hash|r|key [count [WITHVALUES]]|Returns random fields of a hash
HSCAN|hash|r|key cursor [MATCH pattern] [COUNT count]|Iterates the fields of a hash
HSET|hash|w|key field value [field value …]|Sets hash fields; returns how many were added
HSETEX|hash|w|key [FNX|FXX] [EX seconds|PX ms|EXAT ts|PXAT ts|KEEPTTL] FIELDS numfields field value [field value …]|Sets hash fields with an expiry (Redis 8.0)
HSETNX|hash|w|key field value|Sets a hash field only if it does not exist
HSTRLEN|hash|r|key field|Returns the length of a hash field's value
HTTL|hash|r|key FIELDS numfields field [field …]|Returns hash fields' time to live in seconds (Redis 7.4)
HVALS|hash|r|key|Returns all values of a hash
LINDEX|list|r|key index|Returns the element at an index
LINSERT|list|w|key BEFORE|AFTER pivot element|Inserts an element before or after another
LLEN|list|r|key|Returns the length of a list
LMOVE|list|w|source destination LEFT|RIGHT LEFT|RIGHT|Pops from one list and pushes to another
LMPOP|list|w|numkeys key [key …] LEFT|RIGHT [COUNT count]|Pops elements from the first non-empty list
LPOP|list|w|key [count]|Removes and returns the first elements
LPOS|list|r|key element [RANK rank] [COUNT n] [MAXLEN len]|Returns the index of matching elements
LPUSH|list|w|key element [element …]|Prepends elements to a list
LPUSHX|list|w|key element [element …]|Prepends only if the list exists
LRANGE|list|r|key start stop|Returns a range of elements
LREM|list|w|key count element|Removes matching elements
LSET|list|w|key index element|Sets the element at an index
LTRIM|list|w|key start stop|Trims a list to a range
RPOP|list|w|key [count]|Removes and returns the last elements
RPOPLPUSH|list|w|source destination|Pops from one list and pushes to another (deprecated: LMOVE)
RPUSH|list|w|key element [element …]|Appends elements to a list
RPUSHX|list|w|key element [element …]|Appends only if the list exists
SADD|set|w|key member [member …]|Adds members to a set
SCARD|set|r|key|Returns the number of members of a set
SDIFF|set|r|key [key …]|Returns the difference of sets
SDIFFSTORE|set|w|destination key [key …]|Stores the difference of sets
SINTER|set|r|key [key …]|Returns the intersection of sets
SINTERCARD|set|r|numkeys key [key …] [LIMIT limit]|Returns the size of an intersection
SINTERSTORE|set|w|destination key [key …]|Stores the intersection of sets
SISMEMBER|set|r|key member|Whether a member is in a set
SMEMBERS|set|r|key|Returns all members of a set
SMISMEMBER|set|r|key member [member …]|Whether each member is in a set
SMOVE|set|w|source destination member|Moves a member to another set
SPOP|set|w|key [count]|Removes and returns random members
SRANDMEMBER|set|r|key [count]|Returns random members
SREM|set|w|key member [member …]|Removes members from a set
SSCAN|set|r|key cursor [MATCH pattern] [COUNT count]|Iterates the members of a set
SUNION|set|r|key [key …]|Returns the union of sets
SUNIONSTORE|set|w|destination key [key …]|Stores the union of sets
ZADD|zset|w|key [NX|XX] [GT|LT] [CH] [INCR] score member [score member …]|Adds members with scores
ZCARD|zset|r|key|Returns the number of members
ZCOUNT|zset|r|key min max|Counts members within a score range
ZDIFF|zset|r|numkeys key [key …] [WITHSCORES]|Returns the difference of sorted sets
ZINCRBY|zset|w|key increment member|Increments the score of a member
ZINTER|zset|r|numkeys key [key …] [WEIGHTS w …] [AGGREGATE SUM|MIN|MAX] [WITHSCORES]|Returns the intersection of sorted sets
ZINTERSTORE|zset|w|destination numkeys key [key …]|Stores the intersection of sorted sets
ZLEXCOUNT|zset|r|key min max|Counts members within a lexical range
ZMSCORE|zset|r|key member [member …]|Returns the scores of several members
ZPOPMAX|zset|w|key [count]|Removes and returns the highest-scored members
ZPOPMIN|zset|w|key [count]|Removes and returns the lowest-scored members
ZRANDMEMBER|zset|r|key [count [WITHSCORES]]|Returns random members
ZRANGE|zset|r|key start stop [BYSCORE|BYLEX] [REV] [LIMIT offset count] [WITHSCORES]|Returns a range of members
ZRANGEBYSCORE|zset|r|key min max [WITHSCORES] [LIMIT offset count]|Returns members within a score range
ZRANGESTORE|zset|w|dst src min max [BYSCORE|BYLEX] [REV] [LIMIT offset count]|Stores a range of members
ZRANK|zset|r|key member [WITHSCORE]|Returns the rank of a member
ZREM|zset|w|key member [member …]|Removes members
ZREMRANGEBYRANK|zset|w|key start stop|Removes members within a rank range
ZREMRANGEBYSCORE|zset|w|key min max|Removes members within a score range
ZREVRANGE|zset|r|key start stop [WITHSCORES]|Returns members in reverse order
ZREVRANK|zset|r|key member [WITHSCORE]|Returns the reverse rank of a member
ZSCAN|zset|r|key cursor [MATCH pattern] [COUNT count]|Iterates the members of a sorted set
ZSCORE|zset|r|key member|Returns the score of a member
ZUNION|zset|r|numkeys key [key …] [WITHSCORES]|Returns the union of sorted sets
ZUNIONSTORE|zset|w|destination numkeys key [key …]|Stores the union of sorted sets
XACK|stream|w|key group id [id …]|Acknowledges messages of a consumer group
XACKDEL|stream|w|key group [KEEPREF|DELREF|ACKED] IDS numids id [id …]|Acknowledges entries in a group and deletes them from the stream (Redis 8.2)
XADD|stream|w|key [NOMKSTREAM] [MAXLEN|MINID [=|~] threshold] *|id field value [field value …]|Appends an entry to a stream
XAUTOCLAIM|stream|w|key group consumer min-idle-time start [COUNT count] [JUSTID]|Claims idle pending entries
XCLAIM|stream|w|key group consumer min-idle-time id [id …]|Changes the owner of pending entries
XDEL|stream|w|key id [id …]|Deletes entries from a stream
XDELEX|stream|w|key [KEEPREF|DELREF|ACKED] IDS numids id [id …]|Deletes entries, choosing what happens to consumer groups' references (Redis 8.2)
XGROUP|stream|w|CREATE|DESTROY|CREATECONSUMER|DELCONSUMER|SETID key group …|Manages consumer groups
XINFO|stream|r|STREAM|GROUPS|CONSUMERS key …|Information about a stream, its groups and consumers
XLEN|stream|r|key|Returns the number of entries in a stream
XPENDING|stream|r|key group [[IDLE min] start end count [consumer]]|Returns pending entries of a group
XRANGE|stream|r|key start end [COUNT count]|Returns entries within an id range
XREAD|stream|r|[COUNT count] STREAMS key [key …] id [id …]|Reads entries (the blocking form is not supported)
XREADGROUP|stream|w|GROUP group consumer [COUNT count] [NOACK] STREAMS key [key …] id [id …]|Reads entries as a consumer group
XREVRANGE|stream|r|key end start [COUNT count]|Returns entries in reverse order
XTRIM|stream|w|key MAXLEN|MINID [=|~] threshold [LIMIT count]|Trims a stream
COPY|generic|w|source destination [DB db] [REPLACE]|Copies a key
DEL|generic|w|key [key …]|Deletes keys
DUMP|generic|r|key|Returns a serialized value
EXISTS|generic|r|key [key …]|Counts how many of the keys exist
EXPIRE|generic|w|key seconds [NX|XX|GT|LT]|Sets a key's time to live in seconds
EXPIREAT|generic|w|key unix-time-seconds [NX|XX|GT|LT]|Sets a key's expiry as a Unix time
EXPIRETIME|generic|r|key|Returns the expiry of a key as a Unix time
KEYS|generic|r|pattern|Returns all keys matching a pattern — blocks the server; prefer SCAN
OBJECT|generic|r|ENCODING|FREQ|IDLETIME|REFCOUNT key|Inspects the internals of a value
PERSIST|generic|w|key|Removes the expiry of a key
PEXPIRE|generic|w|key milliseconds [NX|XX|GT|LT]|Sets a key's time to live in milliseconds
PEXPIREAT|generic|w|key unix-time-ms [NX|XX|GT|LT]|Sets a key's expiry as a Unix time in ms
PEXPIRETIME|generic|r|key|Returns the expiry of a key as a Unix time in ms
PTTL|generic|r|key|Returns the time to live in milliseconds (-1 none, -2 missing)
RANDOMKEY|generic|r||Returns a random key
RENAME|generic|w|key newkey|Renames a key (overwrites newkey)
RENAMENX|generic|w|key newkey|Renames a key only if newkey does not exist
RESTORE|generic|w|key ttl serialized-value [REPLACE]|Creates a key from a DUMP
SCAN|generic|r|cursor [MATCH pattern] [COUNT count] [TYPE type] [WITHTYPE]|Iterates the keys of the database
SORT|generic|w|key [BY pattern] [LIMIT offset count] [GET pattern …] [ASC|DESC] [ALPHA] [STORE destination]|Sorts a list, set or sorted set
SORT_RO|generic|r|key [BY pattern] [LIMIT offset count] [ASC|DESC] [ALPHA]|Sorts without storing
TOUCH|generic|w|key [key …]|Updates the last access time of keys
TTL|generic|r|key|Returns the time to live in seconds (-1 none, -2 missing)
TYPE|generic|r|key|Returns the type of a value
UNLINK|generic|w|key [key …]|Deletes keys, freeing memory in the background
PFADD|hyperloglog|w|key [element …]|Adds elements to a HyperLogLog
PFCOUNT|hyperloglog|r|key [key …]|Returns the approximate cardinality
PFMERGE|hyperloglog|w|destkey [sourcekey …]|Merges HyperLogLogs
GEOADD|geo|w|key [NX|XX] [CH] longitude latitude member [… …]|Adds geospatial items
GEODIST|geo|r|key member1 member2 [M|KM|FT|MI]|Distance between two members
GEOHASH|geo|r|key member [member …]|Geohash strings of members
GEOPOS|geo|r|key member [member …]|Longitude and latitude of members
GEOSEARCH|geo|r|key FROMMEMBER m|FROMLONLAT lon lat BYRADIUS r unit|BYBOX w h unit [ASC|DESC] [COUNT n] [WITHCOORD] [WITHDIST]|Searches within an area
JSON.SET|json|w|key path value [NX|XX]|Sets a JSON value at a path (a new document at $)
JSON.GET|json|r|key [INDENT i] [NEWLINE n] [SPACE s] [path …]|Returns the JSON at one or more paths
JSON.MGET|json|r|key [key …] path|Returns the JSON at a path of several documents
JSON.MSET|json|w|key path value [key path value …]|Sets JSON values of several documents atomically
JSON.MERGE|json|w|key path value|Merges a JSON value into the document (RFC 7396; null removes)
JSON.DEL|json|w|key [path]|Deletes the values at a path (the key at $); returns how many
JSON.FORGET|json|w|key [path]|The same as JSON.DEL
JSON.TYPE|json|r|key [path]|Returns the JSON type of the values at a path
JSON.STRLEN|json|r|key [path]|Returns the length of JSON strings at a path
JSON.STRAPPEND|json|w|key [path] value|Appends a JSON string to the strings at a path
JSON.NUMINCRBY|json|w|key path number|Adds a number to the numbers at a path
JSON.NUMMULTBY|json|w|key path number|Multiplies the numbers at a path
JSON.TOGGLE|json|w|key path|Flips the booleans at a path
JSON.CLEAR|json|w|key [path]|Empties arrays and objects and zeroes numbers at a path
JSON.OBJKEYS|json|r|key [path]|Returns the member names of the objects at a path
JSON.OBJLEN|json|r|key [path]|Returns the number of members of the objects at a path
JSON.ARRAPPEND|json|w|key path value [value …]|Appends JSON values to the arrays at a path
JSON.ARRINDEX|json|r|key path value [start [stop]]|Returns the first index of a JSON value in the arrays at a path
JSON.ARRINSERT|json|w|key path index value [value …]|Inserts JSON values into the arrays at a path
JSON.ARRLEN|json|r|key [path]|Returns the length of the arrays at a path
JSON.ARRPOP|json|w|key [path [index]]|Removes and returns an item of the arrays at a path
JSON.ARRTRIM|json|w|key path start stop|Keeps only a range of the arrays at a path
JSON.RESP|json|r|key [path]|Returns the JSON at a path in RESP form
JSON.DEBUG|json|r|MEMORY key [path]|Memory used by the JSON at a path
SEARCH.CREATE|search|w|index [SKIPINITIALSCAN] [EXISTSOK] ON HASH|JSON|STRING PREFIX count prefix [prefix …] [LANGUAGE language] SCHEMA field TEXT|U64|I64|F64|BOOL|DATE|KEYWORD|FACET [FAST] [NOTOKENIZE] [NOSTEM] [FROM source] [field …]|Creates a search index over the keys under the prefixes (1; with EXISTSOK 0 when the same index exists)
SEARCH.QUERY|search|r|index filter [LIMIT n] [OFFSET n] [NOCONTENT] [ORDERBY field ASC|DESC] [SCOREFUNC …] [HIGHLIGHT FIELDS n field … [TAGS pre post]] [SELECT n field …]|Finds documents by a JSON filter, most relevant first
SEARCH.COUNT|search|r|index filter|Counts the documents a JSON filter matches (-1 for no such index)
SEARCH.AGGREGATE|search|r|index filter aggregations|Aggregates the documents a JSON filter matches ($stats, $terms, $range, $histogram, $facet, …)
SEARCH.DESCRIBE|search|r|index|Describes an index: data type, prefixes, language, schema
SEARCH.DROP|search|w|index|Deletes an index (its documents stay)
SEARCH.WAITINDEXING|search|r|index|Waits until the index has caught up with the writes before it
SEARCH.REINDEX|search|w|index|Rebuilds an index from the keys now under its prefixes (1, or 0 for no such index); changes no key, counted a write as it rebuilds the index
SEARCH.ALIASADD|search|w|alias index|Points an alias at an index (1 new, 2 moved)
SEARCH.ALIASDEL|search|w|alias|Deletes an alias
SEARCH.LISTALIASES|search|r||Lists the aliases and their indexes
SEARCH.LISTINDEXES|search|r|[MATCH pattern] [LIMIT count] [OFFSET offset]|Lists the indexes by name, each with its type (HASH, JSON or STRING)
PUBLISH|pubsub|w|channel message|Posts a message to a channel; returns the number of receivers
PUBSUB|pubsub|r|CHANNELS [pattern]|NUMSUB [channel …]|NUMPAT|Inspects the pub/sub system
EVAL|scripting|w|script numkeys [key …] [arg …]|Runs a Lua script
EVALSHA|scripting|w|sha1 numkeys [key …] [arg …]|Runs a cached Lua script
EVAL_RO|scripting|r|script numkeys [key …] [arg …]|Runs a read-only Lua script
EVALSHA_RO|scripting|r|sha1 numkeys [key …] [arg …]|Runs a cached read-only Lua script
SCRIPT|scripting|w|LOAD script|EXISTS sha1 …|FLUSH [ASYNC|SYNC]|Manages the script cache
FCALL|scripting|w|function numkeys [key …] [arg …]|Calls a function
FCALL_RO|scripting|r|function numkeys [key …] [arg …]|Calls a read-only function
FUNCTION|scripting|w|LOAD [REPLACE] code|LIST|DELETE name|FLUSH|STATS|Manages functions
DBSIZE|server|r||Returns the number of keys
FLUSHALL|server|w|[ASYNC|SYNC]|Deletes every key of every database
FLUSHDB|server|w|[ASYNC|SYNC]|Deletes every key of the database
INFO|server|r|[section …]|Server information and statistics
TIME|server|r||Returns the server time
LASTSAVE|server|r||Unix time of the last save
MEMORY|server|r|USAGE key [SAMPLES count]|STATS|DOCTOR|Memory usage of a key or the server
CONFIG|server|w|GET parameter|SET parameter value|RESETSTAT|Reads or changes the server configuration
COMMAND|server|r|COUNT|DOCS [name …]|INFO [name …]|LIST|Information about commands
ACL|server|w|RESTTOKEN user password|WHOAMI|LIST|SETUSER …|Access control (RESTTOKEN is a REST extension)
DEBUG|server|w|subcommand …|Debugging commands — can crash or block the server
SHUTDOWN|server|w|[NOSAVE|SAVE]|Stops the server
SLOWLOG|server|r|GET [count]|LEN|RESET|The slow query log
PING|connection|r|[message]|Answers PONG
ECHO|connection|r|message|Answers the message
MULTI|transactions|r||Use the transaction editor instead (the REST API runs MULTI/EXEC as /multi-exec)
EXEC|transactions|r||Use the transaction editor instead
`;

function parseTable(text: string): Map<string, CommandDoc> {
  const docs = new Map<string, CommandDoc>();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const parts = line.split('|');
    // args may contain `|` itself: everything between the third field and the last is the syntax.
    const name = parts[0]!;
    const group = parts[1]!;
    const write = parts[2] === 'w';
    const summary = parts[parts.length - 1]!;
    const args = parts.slice(3, -1).join('|');
    docs.set(name, { name, group, write, args, summary });
  }
  return docs;
}

export const BUNDLED_COMMAND_DOCS: ReadonlyMap<string, CommandDoc> = parseTable(TABLE);

/** The bundled doc of a command name (any case), if the table has it. */
export function bundledDoc(name: string): CommandDoc | undefined {
  return BUNDLED_COMMAND_DOCS.get(name.toUpperCase());
}

/** Whether a command changes data; unknown commands count as writes (refusing is the safe guess). */
export function isWriteCommand(args: readonly string[]): boolean {
  const name = (args[0] ?? '').toUpperCase();
  const doc = BUNDLED_COMMAND_DOCS.get(name);
  if (!doc) return true;
  const sub = (args[1] ?? '').toUpperCase();
  // Container commands whose read subcommands are safe.
  if (name === 'SCRIPT') return sub !== 'EXISTS';
  if (name === 'FUNCTION') return !['LIST', 'STATS', 'DUMP'].includes(sub);
  if (name === 'CONFIG') return sub !== 'GET';
  if (name === 'ACL') return !['WHOAMI', 'LIST', 'USERS', 'CAT', 'GETUSER'].includes(sub);
  if (name === 'XGROUP') return true;
  return doc.write;
}

/** Completion candidates for a partial command name, bundled table merged with the server's docs. */
export function completeCommandName(
  prefix: string,
  docs: ReadonlyMap<string, CommandDoc> = BUNDLED_COMMAND_DOCS,
  limit = 12,
): CommandDoc[] {
  const upper = prefix.toUpperCase();
  if (!upper) return [];
  const starts: CommandDoc[] = [];
  for (const doc of docs.values()) if (doc.name.startsWith(upper)) starts.push(doc);
  starts.sort((a, b) => a.name.length - b.name.length || a.name.localeCompare(b.name));
  return starts.slice(0, limit);
}
