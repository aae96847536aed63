// Redis Search (the hosted KV service's SEARCH.* commands) as the console reads and writes it: the shapes of
// an index's definition and a query's rows, the rules for names and limits, and the filter's grammar. A filter
// is JSON text; `checkSearchFilter` reads it with the grammar of the vendor's query docs (field conditions
// with $eq, $in, $gt …; $and, $or, $must, $should, $mustNot around them), so the Search tab says what is wrong
// while it is typed and main refuses the same text before anything is sent. Whether a field exists and holds
// the type an operator needs is the service's to say: the tab warns about names the schema lacks, and the
// service's own error is shown for the rest. Pure data and functions; no Node, no DOM.

/** A schema field's type, as `SEARCH.CREATE … SCHEMA field TYPE` and `SEARCH.DESCRIBE` spell it. */
export const SEARCH_FIELD_TYPES = ['TEXT', 'U64', 'I64', 'F64', 'BOOL', 'DATE', 'KEYWORD', 'FACET'] as const;
export type KvSearchFieldType = (typeof SEARCH_FIELD_TYPES)[number];

/** One field of an index's schema as SEARCH.DESCRIBE answers it. */
export interface KvSearchField {
  /** The field's name in the index (dotted in a nested JSON schema: `address.city`). */
  name: string;
  /** One of SEARCH_FIELD_TYPES, or the service's own word for a type this console does not know yet. */
  type: string;
  fast: boolean;
  noTokenize: boolean;
  noStem: boolean;
  /** `FROM source`: where in the document the value is read, when not at `name`. */
  from?: string;
}

/** An index's definition (SEARCH.DESCRIBE). */
export interface KvSearchIndex {
  name: string;
  /** `hash`, `json` or `string` (lower case, as the vendor's SDK reports it). */
  dataType: string;
  prefixes: string[];
  language: string;
  fields: KvSearchField[];
}

/** A value a query returned for a field: text, a number, a boolean, or JSON (a part of a JSON document). */
export type KvSearchValue =
  string | number | boolean | null | KvSearchValue[] | { [key: string]: KvSearchValue };

/** One document a query matched. */
export interface KvSearchRow {
  key: string;
  score: number;
  /** The returned fields in the service's order (dotted names for nested ones); empty with keys only. */
  fields: [string, KvSearchValue][];
}

/** Index names and field names: one argument each, without spaces or control characters. */
export const SEARCH_NAME_MAX = 256;
const NAME_PATTERN = /^[^\s\p{Cc}]+$/u;

/** Why `name` cannot be an index (or alias) name, or undefined when it can. */
export function searchNameProblem(name: string, what = 'an index name'): string | undefined {
  if (name.length === 0) return `${what} is needed`;
  if (name.length > SEARCH_NAME_MAX) return `${what} is at most ${SEARCH_NAME_MAX} characters`;
  if (!NAME_PATTERN.test(name)) return `${what} has no spaces or control characters`;
  return undefined;
}

/** Rows per query page: the tab's default and the most one request asks for. */
export const SEARCH_LIMIT_DEFAULT = 20;
export const SEARCH_LIMIT_MAX = 1000;
/** The furthest OFFSET the service pages to (its documented limit): "Load more" and an export go no further. */
export const SEARCH_OFFSET_MAX = 10_000;
/** The most documents an export writes: a last full page from the furthest OFFSET. */
export const SEARCH_EXPORT_MAX = SEARCH_OFFSET_MAX + SEARCH_LIMIT_MAX;
/** The longest filter text main sends. */
export const SEARCH_FILTER_MAX = 64 * 1024;
/** How deep $and/$or/… may nest in a filter the console sends. */
export const SEARCH_FILTER_DEPTH_MAX = 32;
/** The fields one query may SELECT. */
export const SEARCH_SELECT_MAX = 64;

/** The operators that combine conditions; each takes a filter or a list of filters. */
export const SEARCH_BOOLEAN_OPERATORS = ['$and', '$or', '$must', '$should', '$mustNot'] as const;
/** The operators of one field's condition (`{"price": {"$gte": 10}}`). */
export const SEARCH_FIELD_OPERATORS = [
  '$eq',
  '$in',
  '$gt',
  '$gte',
  '$lt',
  '$lte',
  '$fuzzy',
  '$phrase',
  '$regex',
  '$smart',
  '$boost',
] as const;

export type SearchFilter = { [key: string]: unknown };
export type SearchFilterCheck = { ok: true; filter: SearchFilter } | { ok: false; error: string };

/**
 * Reads JSON text that must be one object of at most `max` characters (a filter, aggregations); `subject`
 * starts the error ("A filter is", "Aggregations are").
 */
export function readJsonObject(
  text: string,
  max: number,
  subject: string,
): { ok: true; value: { [key: string]: unknown } } | { ok: false; error: string } {
  if (text.length > max) return { ok: false, error: `${subject} at most ${max / 1024} KB of JSON.` };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, error: jsonSyntaxError(text) };
  }
  if (!isJsonObject(parsed))
    return { ok: false, error: `${subject} a JSON object ({…}), not ${describeJson(parsed)}.` };
  return { ok: true, value: parsed };
}

/** Reads a filter's JSON text and checks it against the filter grammar; the error says where and what. */
export function checkSearchFilter(text: string): SearchFilterCheck {
  if (!text.trim())
    return { ok: false, error: 'Write a filter: a JSON object such as {"name": {"$eq": "laptop"}}.' };
  const read = readJsonObject(text, SEARCH_FILTER_MAX, 'A filter is');
  if (!read.ok) return read;
  const parsed = read.value;
  const problem = filterProblem(parsed, '', 0);
  return problem ? { ok: false, error: problem } : { ok: true, filter: parsed };
}

const BOOLEAN = new Set<string>(SEARCH_BOOLEAN_OPERATORS);
const FIELD_OPERATORS = new Set<string>(SEARCH_FIELD_OPERATORS);

function filterProblem(node: SearchFilter, path: string, depth: number): string | undefined {
  if (depth > SEARCH_FILTER_DEPTH_MAX)
    return `The filter nests deeper than ${SEARCH_FILTER_DEPTH_MAX} levels${atPath(path)}.`;
  for (const [key, value] of Object.entries(node)) {
    const here = path ? `${path}.${key}` : key;
    if (BOOLEAN.has(key)) {
      const list = Array.isArray(value) ? value : [value];
      if (list.length === 0) return `${key} needs at least one condition${atPath(here)}.`;
      for (let i = 0; i < list.length; i += 1) {
        const item: unknown = list[i];
        const itemPath = Array.isArray(value) ? `${here}[${i}]` : here;
        if (!isJsonObject(item))
          return `${key} takes filters (JSON objects), not ${describeJson(item)}${atPath(itemPath)}.`;
        const problem = filterProblem(item, itemPath, depth + 1);
        if (problem) return problem;
      }
    } else if (key === '$boost') {
      if (typeof value !== 'number')
        return `$boost takes a number, not ${describeJson(value)}${atPath(here)}.`;
    } else if (key.startsWith('$')) {
      return `Unknown operator ${key}${atPath(path)}: a filter combines conditions with ${SEARCH_BOOLEAN_OPERATORS.join(', ')} (and $boost); a field's condition is {"field": {"$eq": …}}.`;
    } else {
      const problem = conditionProblem(key, value, here);
      if (problem) return problem;
    }
  }
  return undefined;
}

function conditionProblem(field: string, value: unknown, path: string): string | undefined {
  if (!field.trim()) return `A field name is needed${atPath(path)}.`;
  // `{"inStock": true}`: a bare value is the field's $eq, a bare list its $in.
  if (isScalar(value)) return undefined;
  if (Array.isArray(value)) {
    if (value.length === 0) return `Field "${field}" has an empty list of values${atPath(path)}.`;
    const bad = value.find((item) => !isScalar(item));
    return bad === undefined
      ? undefined
      : `Field "${field}" lists text, numbers or booleans, not ${describeJson(bad)}${atPath(path)}.`;
  }
  if (!isJsonObject(value))
    return `Field "${field}" needs a value or a condition such as {"$eq": …}, not ${describeJson(value)}${atPath(path)}.`;
  const operators = Object.keys(value);
  if (operators.filter((op) => op !== '$boost').length === 0)
    return `Field "${field}" needs an operator such as $eq, $in, $gt or $smart${atPath(path)}.`;
  for (const op of operators) {
    const operand = value[op];
    const here = `${path}.${op}`;
    if (!FIELD_OPERATORS.has(op)) {
      return op.startsWith('$')
        ? `Unknown operator ${op} for field "${field}"${atPath(path)}: use one of ${SEARCH_FIELD_OPERATORS.join(', ')}.`
        : `Field "${field}" has "${op}" where an operator ($eq, $in, …) belongs${atPath(path)}; a nested field is written with dots: "${field}.${op}".`;
    }
    if (op === '$boost') {
      if (typeof operand !== 'number')
        return `$boost takes a number, not ${describeJson(operand)}${atPath(here)}.`;
    } else if (op === '$in') {
      if (!Array.isArray(operand) || operand.length === 0)
        return `$in takes a non-empty list of values${atPath(here)}.`;
      const bad = operand.find((item) => !isScalar(item));
      if (bad !== undefined)
        return `$in takes text, numbers or booleans, not ${describeJson(bad)}${atPath(here)}.`;
    } else if (op === '$fuzzy' || op === '$phrase') {
      // Text, or the options object ({"value": "lapto", "distance": 1} / {"value": …, "slop": 1}).
      if (!isScalar(operand) && !(isJsonObject(operand) && 'value' in operand))
        return `${op} takes text or an object with "value"${atPath(here)}.`;
    } else if (!isScalar(operand)) {
      return `${op} takes text, a number or a boolean, not ${describeJson(operand)}${atPath(here)}.`;
    }
  }
  return undefined;
}

/** The field names a filter names (in order, once each): the tab warns about those the schema lacks. */
export function filterFieldNames(filter: SearchFilter): string[] {
  const names = new Set<string>();
  const walk = (node: SearchFilter) => {
    for (const [key, value] of Object.entries(node)) {
      if (BOOLEAN.has(key))
        for (const item of Array.isArray(value) ? value : [value]) walk(item as SearchFilter);
      else if (!key.startsWith('$')) names.add(key);
    }
  };
  walk(filter);
  return [...names];
}

/**
 * An example filter for an index, to start from: the first TEXT field with $eq (else the first field with
 * an operator that fits its type), pretty-printed. `{}` for a schema without fields.
 */
export function exampleFilter(fields: readonly KvSearchField[]): string {
  const text = fields.find((field) => field.type === 'TEXT');
  const field = text ?? fields[0];
  if (!field) return '{}';
  return JSON.stringify({ [field.name]: exampleCondition(field.type) }, null, 2);
}

function exampleCondition(type: string): Record<string, unknown> {
  switch (type) {
    case 'U64':
    case 'I64':
    case 'F64':
      return { $gte: 0 };
    case 'BOOL':
      return { $eq: true };
    case 'DATE':
      return { $gte: '2024-01-01T00:00:00Z' };
    case 'TEXT':
      return { $eq: 'word' };
    default:
      return { $eq: 'value' };
  }
}

/**
 * The fields a query can order by: the FAST ones, in schema order. The service sorts by a FAST field only
 * (and only numeric, BOOL and DATE fields can be FAST); any other field is refused.
 */
export function orderableFields(fields: readonly KvSearchField[]): KvSearchField[] {
  return fields.filter((f) => f.fast);
}

/** A value of a row's field as one line of text. */
export function searchValueText(value: KvSearchValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * Where and why JSON text breaks, found by a small reader of the JSON grammar (JSON.parse says it
 * differently in every engine, and not always where): "Not valid JSON: expected a value (line 1, column 18)."
 */
export function jsonSyntaxError(text: string): string {
  const { offset, expected } = jsonBreak(text);
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  const char = text[offset];
  const found = char === undefined ? 'the end of the text' : char === '\n' ? 'a line break' : `“${char}”`;
  return `Not valid JSON: expected ${expected}, found ${found} (line ${line}, column ${column}).`;
}

/** The offset of the first character JSON's grammar does not allow there, and what it allows. */
function jsonBreak(text: string): { offset: number; expected: string } {
  let i = 0;
  class Break {
    constructor(readonly expected: string) {}
  }
  const space = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i += 1;
  };
  const expect = (char: string, what: string) => {
    space();
    if (text[i] !== char) throw new Break(what);
    i += 1;
  };
  const string = (what = 'text in double quotes') => {
    if (text[i] !== '"') throw new Break(what);
    i += 1;
    while (i < text.length && text[i] !== '"') {
      if (text.charCodeAt(i) < 0x20) throw new Break('a closing quote (or \\n for a line break)');
      if (text[i] === '\\') {
        i += 1;
        if (text[i] === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) i += 4;
        else if (!'"\\/bfnrt'.includes(text[i] ?? 'x'))
          throw new Break('an escape such as \\n, \\" or \\u00e9');
      }
      i += 1;
    }
    if (i >= text.length) throw new Break('a closing quote');
    i += 1;
  };
  const value = (): void => {
    space();
    const char = text[i];
    if (char === '{') {
      i += 1;
      space();
      if (text[i] === '}') {
        i += 1;
        return;
      }
      for (;;) {
        space();
        string('a name in double quotes');
        expect(':', "':' after the name");
        value();
        space();
        if (text[i] === ',') i += 1;
        else return expect('}', "',' or '}'");
      }
    }
    if (char === '[') {
      i += 1;
      space();
      if (text[i] === ']') {
        i += 1;
        return;
      }
      for (;;) {
        value();
        space();
        if (text[i] === ',') i += 1;
        else return expect(']', "',' or ']'");
      }
    }
    if (char === '"') return string();
    const literal = /^(true|false|null|-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?)/.exec(text.slice(i));
    if (!literal) throw new Break('a value (text in double quotes, a number, true, false, null, { or [)');
    i += literal[0].length;
  };
  try {
    value();
    space();
    if (i < text.length) throw new Break('nothing more after the JSON');
    // JSON.parse refused what this reader allows: say so at the start rather than nowhere.
    return { offset: 0, expected: 'JSON' };
  } catch (error) {
    if (error instanceof Break) return { offset: i, expected: error.expected };
    throw error;
  }
}

/** Where in a JSON document a problem is, for an error message: ` (at a.b)`, or nothing at the top. */
export function atPath(path: string): string {
  return path ? ` (at ${path})` : '';
}

export function isJsonObject(value: unknown): value is { [key: string]: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** A JSON value in words, for an error message: `the text "abc"`, `a list`, `the number 3`. */
export function describeJson(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string')
    return `the text ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `${typeof value === 'number' ? 'the number' : 'the boolean'} ${String(value)}`;
}
