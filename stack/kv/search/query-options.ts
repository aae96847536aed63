// The options after SEARCH.QUERY's filter, as the SDK sends them (search/command-builder.ts):
//   LIMIT n  OFFSET n  NOCONTENT  ORDERBY field ASC|DESC  SCOREFUNC …  HIGHLIGHT FIELDS n f… [TAGS pre post]
//   SELECT n f…
// and SCOREFUNC's own words: [COMBINEMODE m] [SCOREMODE m] then per field
//   [SCOREMODE m] FIELDVALUE field [MODIFIER m] [FACTOR x] [MISSING x].
import type { RespArg } from '../resp';
import { SearchInputError, text } from './schema';
import type { SearchField, SearchIndexDefinition } from './types';

/** How many results a query answers when it names no LIMIT (the hosted docs' default). */
export const DEFAULT_LIMIT = 10;
/** The hosted service's bounds: LIMIT 1–1000, OFFSET 0–10,000 (docs: SEARCH.QUERY, Troubleshooting). */
const MAX_LIMIT = 1000;
const MAX_OFFSET = 10_000;

export type ScoreModifier =
  'NONE' | 'LOG' | 'LOG1P' | 'LOG2P' | 'LN' | 'LN1P' | 'LN2P' | 'SQUARE' | 'SQRT' | 'RECIPROCAL';
const MODIFIERS: readonly ScoreModifier[] = [
  'NONE',
  'LOG',
  'LOG1P',
  'LOG2P',
  'LN',
  'LN1P',
  'LN2P',
  'SQUARE',
  'SQRT',
  'RECIPROCAL',
];

export interface ScoreFieldValue {
  field: SearchField;
  modifier: ScoreModifier;
  factor: number;
  /** The value of a document without the field; without it such a document's function value is 0. */
  missing: number | undefined;
}

export interface ScoreFunction {
  fields: ScoreFieldValue[];
  /** How the fields' values combine with each other. */
  combineMode: 'MULTIPLY' | 'SUM';
  /** How the combined value combines with the filter's relevance score. */
  scoreMode: 'MULTIPLY' | 'SUM' | 'REPLACE';
}

export interface QueryOptions {
  limit: number;
  offset: number;
  noContent: boolean;
  orderBy: { field: SearchField; descending: boolean }[];
  scoreFunction: ScoreFunction | undefined;
  highlight: { fields: string[]; preTag: string; postTag: string } | undefined;
  /** Paths to answer instead of the whole document. */
  select: string[] | undefined;
}

const OPTION_WORDS = new Set(['LIMIT', 'OFFSET', 'NOCONTENT', 'ORDERBY', 'SCOREFUNC', 'HIGHLIGHT', 'SELECT']);
const SCORE_WORDS = new Set(['COMBINEMODE', 'SCOREMODE', 'FIELDVALUE', 'MODIFIER', 'FACTOR', 'MISSING']);

/** Reads the options from `args[start]` on (for SEARCH.COUNT, which takes none, `start` is past the end). */
export function parseQueryOptions(
  args: readonly RespArg[],
  start: number,
  index: SearchIndexDefinition,
  command: string,
): QueryOptions {
  const words = args.map(text);
  const fields = new Map(index.fields.map((field) => [field.path, field]));
  const options: QueryOptions = {
    limit: DEFAULT_LIMIT,
    offset: 0,
    noContent: false,
    orderBy: [],
    scoreFunction: undefined,
    highlight: undefined,
    select: undefined,
  };
  let i = start;
  const value = (what: string): string => {
    const next = words[++i];
    if (next === undefined) throw new SearchInputError(`ERR ${command}: ${what} needs a value`);
    return next;
  };
  const count = (what: string): number => {
    const raw = value(what);
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n)) {
      throw new SearchInputError(
        `ERR ${command}: ${what} must be a whole number of at least 0, got '${raw}'`,
      );
    }
    return n;
  };
  const schemaField = (path: string, what: string): SearchField => {
    const field = fields.get(path);
    if (!field) throw new SearchInputError(`ERR ${command}: ${what} names unknown field '${path}'`);
    return field;
  };
  for (; i < words.length; i++) {
    const option = words[i]!.toUpperCase();
    switch (option) {
      case 'LIMIT': {
        const raw = value('LIMIT');
        const n = Number(raw);
        // The hosted text (its Troubleshooting page) for any LIMIT outside 1–1000.
        if (!/^\d+$/.test(raw) || n < 1 || n > MAX_LIMIT) {
          throw new SearchInputError('ERR limit should be a positive number less than 1000');
        }
        options.limit = n;
        break;
      }
      case 'OFFSET':
        options.offset = count('OFFSET');
        if (options.offset > MAX_OFFSET) {
          throw new SearchInputError(
            `ERR ${command}: OFFSET must be at most ${MAX_OFFSET}, got ${options.offset}`,
          );
        }
        break;
      case 'NOCONTENT':
        options.noContent = true;
        break;
      case 'ORDERBY': {
        // One or more `field ASC|DESC` pairs.
        do {
          const path = value('ORDERBY');
          const field = schemaField(path, 'ORDERBY');
          if (field.type === 'TEXT' || field.type === 'FACET') {
            throw new SearchInputError(
              `ERR ${command}: cannot ORDERBY ${field.type} field '${path}' (use a numeric, DATE, BOOL or KEYWORD field)`,
            );
          }
          const direction = value(`ORDERBY ${path}`).toUpperCase();
          if (direction !== 'ASC' && direction !== 'DESC') {
            throw new SearchInputError(
              `ERR ${command}: ORDERBY direction must be ASC or DESC, got '${words[i]}'`,
            );
          }
          options.orderBy.push({ field, descending: direction === 'DESC' });
        } while (
          i + 2 < words.length &&
          !OPTION_WORDS.has(words[i + 1]!.toUpperCase()) &&
          /^(asc|desc)$/i.test(words[i + 2]!)
        );
        break;
      }
      case 'SCOREFUNC': {
        const [scoreFunction, next] = parseScoreFunction(words, i + 1, schemaField, command);
        options.scoreFunction = scoreFunction;
        i = next - 1;
        break;
      }
      case 'HIGHLIGHT': {
        if (words[i + 1]?.toUpperCase() !== 'FIELDS')
          throw new SearchInputError(`ERR ${command}: HIGHLIGHT must be followed by FIELDS n field…`);
        i++;
        const n = count('HIGHLIGHT FIELDS');
        const paths = words.slice(i + 1, i + 1 + n);
        if (paths.length !== n)
          throw new SearchInputError(`ERR ${command}: HIGHLIGHT FIELDS ${n} names fewer fields`);
        paths.forEach((path) => schemaField(path, 'HIGHLIGHT'));
        i += n;
        let preTag = '<em>';
        let postTag = '</em>';
        if (words[i + 1]?.toUpperCase() === 'TAGS') {
          i++;
          preTag = value('TAGS');
          postTag = value('TAGS');
        }
        options.highlight = { fields: paths, preTag, postTag };
        break;
      }
      case 'SELECT': {
        const n = count('SELECT');
        const paths = words.slice(i + 1, i + 1 + n);
        if (paths.length !== n) throw new SearchInputError(`ERR ${command}: SELECT ${n} names fewer fields`);
        i += n;
        options.select = paths;
        break;
      }
      default:
        throw new SearchInputError(
          `ERR ${command}: unknown option '${words[i]}' (expected ${[...OPTION_WORDS].join(', ')})`,
        );
    }
  }
  if (options.scoreFunction && options.orderBy.length > 0) {
    throw new SearchInputError(`ERR ${command}: SCOREFUNC and ORDERBY cannot be used together`);
  }
  return options;
}

function parseScoreFunction(
  words: readonly string[],
  start: number,
  schemaField: (path: string, what: string) => SearchField,
  command: string,
): [ScoreFunction, number] {
  const result: ScoreFunction = { fields: [], combineMode: 'MULTIPLY', scoreMode: 'MULTIPLY' };
  let i = start;
  const value = (what: string): string => {
    const next = words[++i];
    if (next === undefined) throw new SearchInputError(`ERR ${command}: SCOREFUNC ${what} needs a value`);
    return next;
  };
  const number = (what: string): number => {
    const raw = value(what);
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(n))
      throw new SearchInputError(`ERR ${command}: SCOREFUNC ${what} must be a number, got '${raw}'`);
    return n;
  };
  const current = (what: string): ScoreFieldValue => {
    const field = result.fields.at(-1);
    if (!field) throw new SearchInputError(`ERR ${command}: SCOREFUNC ${what} must follow FIELDVALUE field`);
    return field;
  };
  for (; i < words.length && SCORE_WORDS.has(words[i]!.toUpperCase()); i++) {
    const word = words[i]!.toUpperCase();
    switch (word) {
      case 'COMBINEMODE': {
        const mode = value('COMBINEMODE').toUpperCase();
        if (mode !== 'MULTIPLY' && mode !== 'SUM') {
          throw new SearchInputError(
            `ERR ${command}: SCOREFUNC COMBINEMODE must be MULTIPLY or SUM, got '${words[i]}'`,
          );
        }
        result.combineMode = mode;
        break;
      }
      case 'SCOREMODE': {
        const mode = value('SCOREMODE').toUpperCase();
        if (mode !== 'MULTIPLY' && mode !== 'SUM' && mode !== 'REPLACE') {
          throw new SearchInputError(
            `ERR ${command}: SCOREFUNC SCOREMODE must be MULTIPLY, SUM or REPLACE, got '${words[i]}'`,
          );
        }
        result.scoreMode = mode;
        break;
      }
      case 'FIELDVALUE': {
        const path = value('FIELDVALUE');
        const field = schemaField(path, 'SCOREFUNC FIELDVALUE');
        if (field.type !== 'U64' && field.type !== 'I64' && field.type !== 'F64' && field.type !== 'DATE') {
          throw new SearchInputError(
            `ERR ${command}: SCOREFUNC FIELDVALUE needs a numeric or DATE field; '${path}' is ${field.type}`,
          );
        }
        result.fields.push({ field, modifier: 'NONE', factor: 1, missing: undefined });
        break;
      }
      case 'MODIFIER': {
        const modifier = value('MODIFIER').toUpperCase() as ScoreModifier;
        if (!MODIFIERS.includes(modifier)) {
          throw new SearchInputError(
            `ERR ${command}: SCOREFUNC MODIFIER must be one of ${MODIFIERS.join(', ')}, got '${words[i]}'`,
          );
        }
        current('MODIFIER').modifier = modifier;
        break;
      }
      case 'FACTOR':
        current('FACTOR').factor = number('FACTOR');
        break;
      default:
        current('MISSING').missing = number('MISSING');
    }
  }
  if (result.fields.length === 0)
    throw new SearchInputError(`ERR ${command}: SCOREFUNC needs at least one FIELDVALUE field`);
  return [result, i];
}
