// A SEARCH.QUERY / COUNT / AGGREGATE filter (the SDK's JSON: field conditions, $and/$or/$must/$should/$mustNot,
// $boost) read into a tree, checked against the index's schema, and evaluated per document with a score:
// BM25 for conditions on TEXT fields (so relevance orders results as the hosted, Tantivy-based service does),
// 1 for every other condition, summed over the clauses that matched and multiplied by their boosts.
import type { IndexedDocument } from './documents';
import { dateValue } from './documents';
import { SearchInputError } from './schema';
import type { Token } from './text';
import { analyze, editDistance, fuzzyPrefixMatches } from './text';
import type { SearchField, SearchFieldType, SearchIndexDefinition, SearchValue } from './types';

type TextCondition =
  /** $eq (one group) and $in (several): a group matches when the document has all its terms. */
  | { kind: 'terms'; groups: string[][] }
  | { kind: 'phrase'; terms: string[]; lastWord: string; slop: number; prefix: boolean }
  | {
      kind: 'fuzzy';
      words: string[];
      stems: string[];
      distance: number;
      transpositions: boolean;
      prefix: boolean;
    }
  | { kind: 'regex'; pattern: RegExp }
  | { kind: 'smart'; words: string[]; stems: string[] };

type ValueCondition =
  | { kind: 'equals'; values: SearchValue[] }
  | { kind: 'range'; gt?: SearchValue; gte?: SearchValue; lt?: SearchValue; lte?: SearchValue };

export type FilterNode =
  | { kind: 'all' }
  | {
      kind: 'bool';
      must: FilterNode[];
      should: FilterNode[];
      shouldRequired: boolean;
      mustNot: FilterNode[];
      boost: number;
    }
  | { kind: 'text'; field: SearchField; condition: TextCondition; boost: number }
  | { kind: 'value'; field: SearchField; condition: ValueCondition; boost: number };

const BOOL_KEYS = new Set(['$and', '$or', '$must', '$should', '$mustNot', '$boost']);
const TEXT_OPERATORS = ['$eq', '$in', '$fuzzy', '$phrase', '$regex', '$smart'];
const RANGE_OPERATORS = ['$gt', '$gte', '$lt', '$lte'];
const OPERATORS_BY_TYPE: Record<SearchFieldType, readonly string[]> = {
  TEXT: TEXT_OPERATORS,
  U64: ['$eq', '$in', ...RANGE_OPERATORS],
  I64: ['$eq', '$in', ...RANGE_OPERATORS],
  F64: ['$eq', '$in', ...RANGE_OPERATORS],
  DATE: ['$eq', '$in', ...RANGE_OPERATORS],
  KEYWORD: ['$eq', '$in', ...RANGE_OPERATORS],
  BOOL: ['$eq', '$in'],
  FACET: ['$eq', '$in'],
};
/** Every field operator of some field type; any other is unknown. */
const FIELD_OPERATORS = new Set(Object.values(OPERATORS_BY_TYPE).flat());
/** How deep boolean clauses may nest. */
const MAX_FILTER_DEPTH = 64;
/** Tantivy's fuzzy queries go up to two edits. */
const MAX_FUZZY_DISTANCE = 2;

const show = (value: unknown): string => JSON.stringify(value) ?? String(value);

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Reads a filter's JSON text; every mistake is a SearchInputError whose text says what and where. */
export function parseFilter(json: string, index: SearchIndexDefinition): FilterNode {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (error) {
    throw new SearchInputError(`ERR the filter is not valid JSON: ${(error as Error).message}`);
  }
  if (!isObject(parsed))
    throw new SearchInputError(`ERR the filter must be a JSON object, got ${show(parsed)}`);
  if (Object.keys(parsed).length === 0) return { kind: 'all' };
  return new FilterReader(index).node(parsed);
}

class FilterReader {
  private readonly fields: Map<string, SearchField>;

  constructor(private readonly index: SearchIndexDefinition) {
    this.fields = new Map(index.fields.map((field) => [field.path, field]));
  }

  node(object: Record<string, unknown>, depth = 1): FilterNode {
    // Evaluation recurses as deep as the filter: a bound keeps a runaway filter an error, not a stack overflow.
    if (depth > MAX_FILTER_DEPTH) {
      throw new SearchInputError(
        `ERR the filter nests $and/$or/$must/$should/$mustNot deeper than ${MAX_FILTER_DEPTH} levels`,
      );
    }
    const must: FilterNode[] = [];
    const should: FilterNode[] = [];
    const mustNot: FilterNode[] = [];
    let boost = 1;
    let hasMust = false;
    for (const [key, value] of Object.entries(object)) {
      if (!key.startsWith('$')) {
        must.push(...this.fieldConditions(key, value));
        hasMust = true;
        continue;
      }
      if (!BOOL_KEYS.has(key)) {
        throw new SearchInputError(
          `ERR unknown operator '${key}' in the filter (expected a field name or $and, $or, $must, $should, $mustNot, $boost)`,
        );
      }
      if (key === '$boost') {
        boost = this.boost(value, 'the filter');
        continue;
      }
      const children = this.children(key, value, depth);
      if (key === '$and' || key === '$must') {
        must.push(...children);
        hasMust = true;
      } else if (key === '$or') {
        // $or beside other clauses still needs one of its own: it is a required group of alternatives.
        must.push({ kind: 'bool', must: [], should: children, shouldRequired: true, mustNot: [], boost: 1 });
        hasMust = true;
      } else if (key === '$should') {
        should.push(...children);
      } else {
        mustNot.push(...children);
      }
    }
    // $should alone means "at least one of these"; beside required clauses it only adds to the score.
    return { kind: 'bool', must, should, shouldRequired: !hasMust, mustNot, boost };
  }

  private children(key: string, value: unknown, depth: number): FilterNode[] {
    const list = Array.isArray(value) ? value : [value];
    return list.map((child) => {
      if (!isObject(child)) {
        throw new SearchInputError(
          `ERR ${key} takes a filter object or an array of them, got ${show(child)}`,
        );
      }
      return Object.keys(child).length === 0 ? ({ kind: 'all' } as const) : this.node(child, depth + 1);
    });
  }

  private boost(value: unknown, where: string): number {
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw new SearchInputError(`ERR $boost in ${where} must be a number, got ${show(value)}`);
    }
    return value;
  }

  private field(path: string): SearchField {
    const field = this.fields.get(path);
    if (!field) {
      throw new SearchInputError(
        `ERR unknown field '${path}' in the filter (index '${this.index.name}' has: ${[...this.fields.keys()].join(', ')})`,
      );
    }
    return field;
  }

  /** `field: value` ($eq), `field: [values]` ($in) or `field: { $op: …, $boost: n }`. */
  private fieldConditions(path: string, value: unknown): FilterNode[] {
    const field = this.field(path);
    if (!isObject(value)) {
      return [this.condition(field, Array.isArray(value) ? '$in' : '$eq', value, 1)];
    }
    const boost = '$boost' in value ? this.boost(value.$boost, `field '${path}'`) : 1;
    const allowed = OPERATORS_BY_TYPE[field.type];
    const nodes: FilterNode[] = [];
    const range: Record<string, unknown> = {};
    for (const [operator, operand] of Object.entries(value)) {
      if (operator === '$boost') continue;
      if (!FIELD_OPERATORS.has(operator)) {
        // The hosted text (its Troubleshooting page: `$not`).
        throw new SearchInputError(`ERR Unknown field operator: ${operator}`);
      }
      if (!allowed.includes(operator)) {
        throw new SearchInputError(
          `ERR operator '${operator}' is not supported for field '${path}' of type ${field.type} (supported: ${allowed.join(', ')})`,
        );
      }
      if (RANGE_OPERATORS.includes(operator)) range[operator] = operand;
      else nodes.push(this.condition(field, operator, operand, boost));
    }
    if (Object.keys(range).length > 0) nodes.push(this.range(field, range, boost));
    if (nodes.length === 0) throw new SearchInputError(`ERR field '${path}' in the filter has no operator`);
    return nodes;
  }

  private condition(field: SearchField, operator: string, operand: unknown, boost: number): FilterNode {
    if (field.type === 'TEXT')
      return { kind: 'text', field, condition: this.textCondition(field, operator, operand), boost };
    if (operator === '$in') {
      if (!Array.isArray(operand)) throw this.wrongType(field, operator, operand, 'an array');
      return {
        kind: 'value',
        field,
        condition: { kind: 'equals', values: operand.map((v) => this.value(field, operator, v)) },
        boost,
      };
    }
    return {
      kind: 'value',
      field,
      condition: { kind: 'equals', values: [this.value(field, operator, operand)] },
      boost,
    };
  }

  private range(field: SearchField, operators: Record<string, unknown>, boost: number): FilterNode {
    const condition: ValueCondition = { kind: 'range' };
    for (const [operator, operand] of Object.entries(operators)) {
      condition[operator.slice(1) as 'gt' | 'gte' | 'lt' | 'lte'] = this.value(field, operator, operand);
    }
    return { kind: 'value', field, condition, boost };
  }

  /** A filter operand converted to the field's type (dates to milliseconds). */
  private value(field: SearchField, operator: string, operand: unknown): SearchValue {
    switch (field.type) {
      case 'U64':
      case 'I64':
      case 'F64':
        if (typeof operand !== 'number' || !Number.isFinite(operand))
          throw this.wrongType(field, operator, operand, 'a number');
        return operand;
      case 'BOOL':
        if (typeof operand !== 'boolean') throw this.wrongType(field, operator, operand, 'true or false');
        return operand;
      case 'DATE': {
        const ms = dateValue(operand);
        if (ms === undefined)
          throw this.wrongType(field, operator, operand, 'a date (RFC 3339 text or milliseconds)');
        return ms;
      }
      default:
        if (typeof operand !== 'string' && typeof operand !== 'number')
          throw this.wrongType(field, operator, operand, 'a string');
        return String(operand);
    }
  }

  private wrongType(
    field: SearchField,
    operator: string,
    operand: unknown,
    expected: string,
  ): SearchInputError {
    return new SearchInputError(
      `ERR ${operator} on field '${field.path}' (${field.type}) needs ${expected}, got ${show(operand)}`,
    );
  }

  private analysis(field: SearchField) {
    return { noTokenize: field.noTokenize, noStem: field.noStem, language: this.index.language };
  }

  private words(field: SearchField, text: string): string[] {
    return analyze(text, { ...this.analysis(field), noStem: true }).map((t) => t.word);
  }

  private textCondition(field: SearchField, operator: string, operand: unknown): TextCondition {
    const terms = (value: unknown): string[] => {
      if (typeof value !== 'string' && typeof value !== 'number')
        throw this.wrongType(field, operator, value, 'a string');
      return analyze(String(value), this.analysis(field)).map((t) => t.term);
    };
    switch (operator) {
      case '$eq':
        return { kind: 'terms', groups: [terms(operand)] };
      case '$in':
        if (!Array.isArray(operand)) throw this.wrongType(field, operator, operand, 'an array of strings');
        return { kind: 'terms', groups: operand.map(terms) };
      case '$phrase': {
        const options = typeof operand === 'string' ? { value: operand } : operand;
        if (!isObject(options) || typeof options.value !== 'string') {
          throw this.wrongType(field, operator, operand, 'a string or { value, slop?, prefix? }');
        }
        const slop = options.slop ?? 0;
        if (typeof slop !== 'number' || !Number.isInteger(slop) || slop < 0) {
          throw this.wrongType(field, `${operator}.slop`, slop, 'a whole number of at least 0');
        }
        if (options.prefix !== undefined && typeof options.prefix !== 'boolean') {
          throw this.wrongType(field, `${operator}.prefix`, options.prefix, 'true or false');
        }
        if (options.prefix && options.slop !== undefined) {
          throw new SearchInputError(`ERR $phrase on field '${field.path}' takes slop or prefix, not both`);
        }
        const tokens = analyze(options.value, this.analysis(field));
        return {
          kind: 'phrase',
          terms: tokens.map((t) => t.term),
          lastWord: tokens.at(-1)?.word ?? '',
          slop,
          prefix: options.prefix === true,
        };
      }
      case '$fuzzy': {
        const options = typeof operand === 'string' ? { value: operand } : operand;
        if (!isObject(options) || typeof options.value !== 'string') {
          throw this.wrongType(
            field,
            operator,
            operand,
            'a string or { value, distance?, transpositionCostOne?, prefix? }',
          );
        }
        const distance = options.distance ?? 1;
        if (
          typeof distance !== 'number' ||
          !Number.isInteger(distance) ||
          distance < 0 ||
          distance > MAX_FUZZY_DISTANCE
        ) {
          throw this.wrongType(
            field,
            `${operator}.distance`,
            distance,
            `a whole number from 0 to ${MAX_FUZZY_DISTANCE}`,
          );
        }
        for (const flag of ['transpositionCostOne', 'prefix'] as const) {
          if (options[flag] !== undefined && typeof options[flag] !== 'boolean') {
            throw this.wrongType(field, `${operator}.${flag}`, options[flag], 'true or false');
          }
        }
        const words = this.words(field, options.value);
        return {
          kind: 'fuzzy',
          words,
          stems: analyze(options.value, this.analysis(field)).map((t) => t.term),
          distance,
          transpositions: options.transpositionCostOne !== false,
          prefix: options.prefix === true,
        };
      }
      case '$regex': {
        if (typeof operand !== 'string')
          throw this.wrongType(field, operator, operand, 'a regular expression string');
        try {
          // A term matches when the whole term matches, as in Tantivy; terms are lower-cased, so is the match.
          return { kind: 'regex', pattern: new RegExp(`^(?:${operand})$`, 'i') };
        } catch (error) {
          throw new SearchInputError(
            `ERR invalid $regex pattern ${show(operand)} on field '${field.path}': ${(error as Error).message}`,
          );
        }
      }
      default: {
        if (typeof operand !== 'string') throw this.wrongType(field, operator, operand, 'a string');
        return {
          kind: 'smart',
          words: this.words(field, operand),
          stems: analyze(operand, this.analysis(field)).map((t) => t.term),
        };
      }
    }
  }
}

// ---- evaluation ----

/** BM25's usual constants (Tantivy's too). */
const K1 = 1.2;
const B = 0.75;

interface FieldStatistics {
  documents: number;
  averageLength: number;
  documentFrequency: Map<string, number>;
}

/** What scoring needs to know about all of the index's documents (BM25's document frequencies, lengths). */
export class Corpus {
  private readonly statistics = new Map<string, FieldStatistics>();

  constructor(private readonly documents: readonly IndexedDocument[]) {}

  fieldStatistics(field: SearchField): FieldStatistics {
    let found = this.statistics.get(field.path);
    if (found) return found;
    let documents = 0;
    let totalLength = 0;
    const documentFrequency = new Map<string, number>();
    for (const document of this.documents) {
      if (document.tokens(field).length === 0) continue;
      documents++;
      const { frequencies, length } = document.termCounts(field);
      totalLength += length;
      for (const term of frequencies.keys())
        documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
    }
    found = { documents, averageLength: documents === 0 ? 0 : totalLength / documents, documentFrequency };
    this.statistics.set(field.path, found);
    return found;
  }
}

/** Terms a document matched, per field path (for HIGHLIGHT). */
export type MatchedTerms = Map<string, Set<string>>;

/** The document's score when it matches the filter, else undefined. */
export function evaluate(
  node: FilterNode,
  document: IndexedDocument,
  corpus: Corpus,
  matched?: MatchedTerms,
): number | undefined {
  switch (node.kind) {
    case 'all':
      return 1;
    case 'value':
      return valueMatches(node.condition, document.value(node.field.path)) ? node.boost : undefined;
    case 'text': {
      const score = textScore(node.field, node.condition, document, corpus, matched);
      return score === undefined ? undefined : score * node.boost;
    }
    case 'bool': {
      // Only clauses that require or exclude something decide; $mustNot alone matches nothing (as hosted).
      if (node.must.length === 0 && node.should.length === 0) return undefined;
      let score = 0;
      for (const child of node.must) {
        const s = evaluate(child, document, corpus, matched);
        if (s === undefined) return undefined;
        score += s;
      }
      for (const child of node.mustNot) {
        if (evaluate(child, document, corpus) !== undefined) return undefined;
      }
      let anyShould = false;
      for (const child of node.should) {
        const s = evaluate(child, document, corpus, matched);
        if (s === undefined) continue;
        anyShould = true;
        score += s;
      }
      if (node.shouldRequired && node.should.length > 0 && !anyShould) return undefined;
      return score * node.boost;
    }
  }
}

function compare(a: SearchValue, b: SearchValue): number {
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  return Number(a) - Number(b);
}

function valueMatches(
  condition: ValueCondition,
  stored: SearchValue | readonly SearchValue[] | undefined,
): boolean {
  if (stored === undefined) return false;
  const values = Array.isArray(stored) ? (stored as readonly SearchValue[]) : [stored as SearchValue];
  return values.some((value) => {
    if (condition.kind === 'equals') return condition.values.some((wanted) => compare(value, wanted) === 0);
    const { gt, gte, lt, lte } = condition;
    return (
      (gt === undefined || compare(value, gt) > 0) &&
      (gte === undefined || compare(value, gte) >= 0) &&
      (lt === undefined || compare(value, lt) < 0) &&
      (lte === undefined || compare(value, lte) <= 0)
    );
  });
}

/** BM25 of one term in one document's field. */
function bm25(term: string, frequency: number, length: number, statistics: FieldStatistics): number {
  const df = statistics.documentFrequency.get(term) ?? 0;
  const idf = Math.log(1 + (statistics.documents - df + 0.5) / (df + 0.5));
  const norm = statistics.averageLength === 0 ? 1 : 1 - B + (B * length) / statistics.averageLength;
  return (idf * (frequency * (K1 + 1))) / (frequency + K1 * norm);
}

function textScore(
  field: SearchField,
  condition: TextCondition,
  document: IndexedDocument,
  corpus: Corpus,
  matched: MatchedTerms | undefined,
): number | undefined {
  const values = document.tokens(field);
  if (values.length === 0) return undefined;
  const { frequencies, length } = document.termCounts(field);
  const statistics = corpus.fieldStatistics(field);
  const scoreOf = (terms: Iterable<string>, weight = 1): number => {
    let score = 0;
    for (const term of terms) score += bm25(term, frequencies.get(term) ?? 0, length, statistics) * weight;
    return score;
  };
  const note = (terms: Iterable<string>): void => {
    if (!matched) return;
    let set = matched.get(field.path);
    if (!set) matched.set(field.path, (set = new Set()));
    for (const term of terms) set.add(term);
  };
  const allTerms = [...frequencies.keys()];
  switch (condition.kind) {
    case 'terms': {
      let score: number | undefined;
      for (const group of condition.groups) {
        if (group.length === 0 || !group.every((term) => frequencies.has(term))) continue;
        score = (score ?? 0) + scoreOf(group);
        note(group);
      }
      return score;
    }
    case 'phrase': {
      if (condition.terms.length === 0) return undefined;
      const found = values.find((tokens) => phraseIn(tokens, condition));
      if (!found) return undefined;
      const used = condition.prefix ? condition.terms.slice(0, -1) : condition.terms;
      const prefixTerms = condition.prefix
        ? found.filter((t) => t.word.startsWith(condition.lastWord)).map((t) => t.term)
        : [];
      note([...used, ...prefixTerms]);
      return scoreOf(used) + scoreOf(new Set(prefixTerms));
    }
    case 'fuzzy': {
      if (condition.words.length === 0) return undefined;
      const hits = new Set<string>();
      for (let i = 0; i < condition.words.length; i++) {
        const word = condition.words[i]!;
        const stem = condition.stems[i] ?? word;
        const near = allTerms.filter((term) =>
          condition.prefix
            ? fuzzyPrefixMatches(term, word, condition.distance, condition.transpositions)
            : Math.min(
                editDistance(term, word, condition.distance, condition.transpositions),
                editDistance(term, stem, condition.distance, condition.transpositions),
              ) <= condition.distance,
        );
        if (near.length === 0) return undefined;
        for (const term of near) hits.add(term);
      }
      note(hits);
      return scoreOf(hits);
    }
    case 'regex': {
      const hits = allTerms.filter((term) => condition.pattern.test(term));
      if (hits.length === 0) return undefined;
      note(hits);
      return scoreOf(hits);
    }
    case 'smart':
      return smartScore(condition, values, allTerms, scoreOf, note);
  }
}

/** The edits a smart query forgives in a word of this length (none for short words, as typo tolerance goes). */
function smartDistance(word: string): number {
  return word.length <= 2 ? 0 : word.length <= 5 ? 1 : 2;
}

/**
 * $smart: each word found exactly (full weight), with a typo (half weight) or — the last one, as typed so far —
 * as a prefix (half weight); the words together as a phrase add as much again. One word found is a match.
 */
function smartScore(
  condition: Extract<TextCondition, { kind: 'smart' }>,
  values: Token[][],
  allTerms: string[],
  scoreOf: (terms: Iterable<string>, weight?: number) => number,
  note: (terms: Iterable<string>) => void,
): number | undefined {
  let score = 0;
  let any = false;
  condition.words.forEach((word, i) => {
    const stem = condition.stems[i] ?? word;
    if (allTerms.includes(stem)) {
      score += scoreOf([stem]);
      note([stem]);
      any = true;
      return;
    }
    const distance = smartDistance(word);
    const last = i === condition.words.length - 1;
    const near = allTerms.filter(
      (term) =>
        (distance > 0 &&
          Math.min(editDistance(term, word, distance), editDistance(term, stem, distance)) <= distance) ||
        (last && word.length >= 2 && term.startsWith(stem)),
    );
    if (near.length === 0) return;
    score += scoreOf(near, 0.5);
    note(near);
    any = true;
  });
  if (!any) return undefined;
  if (condition.stems.length > 1) {
    const phrase = { kind: 'phrase' as const, terms: condition.stems, lastWord: '', slop: 0, prefix: false };
    if (values.some((tokens) => phraseIn(tokens, phrase))) score += scoreOf(condition.stems);
  }
  return score;
}

/** Whether the terms appear in order with at most `slop` other words between them in all. */
function phraseIn(tokens: Token[], phrase: Extract<TextCondition, { kind: 'phrase' }>): boolean {
  const { terms, slop, prefix, lastWord } = phrase;
  const matches = (token: Token, k: number): boolean =>
    prefix && k === terms.length - 1
      ? token.word.startsWith(lastWord) || token.term.startsWith(terms[k]!)
      : token.term === terms[k];
  const from = (k: number, after: number, slack: number): boolean => {
    if (k === terms.length) return true;
    for (let p = after + 1; p < tokens.length && p - after - 1 <= slack; p++) {
      if (matches(tokens[p]!, k) && from(k + 1, p, slack - (p - after - 1))) return true;
    }
    return false;
  };
  for (let p = 0; p < tokens.length; p++) {
    if (matches(tokens[p]!, 0) && from(1, p, slop)) return true;
  }
  return false;
}
