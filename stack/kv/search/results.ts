// From matched documents to SEARCH.QUERY's reply: SCOREFUNC applied, ordered (by score or ORDERBY), paged,
// and each hit written as the SDK decodes it (search/utils.ts): `[key, score]` with NOCONTENT, else
// `[key, score, [[path, value], …]]` — the selected paths, or the whole document as `[["$", json]]` (a hash:
// all its fields) — with HIGHLIGHT's tags around the words that matched.
import type { RespValue } from '../resp';
import type { IndexedDocument } from './documents';
import type { MatchedTerms } from './filter';
import type { QueryOptions, ScoreFieldValue, ScoreFunction } from './query-options';
import { analyze } from './text';
import type { SearchField, SearchIndexDefinition, SearchValue } from './types';

export interface Hit {
  document: IndexedDocument;
  score: number;
  matched: MatchedTerms;
}

const MODIFIERS: Record<ScoreFieldValue['modifier'], (x: number) => number> = {
  NONE: (x) => x,
  LOG: (x) => Math.log10(x),
  LOG1P: (x) => Math.log10(1 + x),
  LOG2P: (x) => Math.log10(2 + x),
  LN: (x) => Math.log(x),
  LN1P: (x) => Math.log(1 + x),
  LN2P: (x) => Math.log(2 + x),
  SQUARE: (x) => x * x,
  SQRT: (x) => Math.sqrt(x),
  RECIPROCAL: (x) => 1 / x,
};

function firstNumber(value: SearchValue | readonly SearchValue[] | undefined): number | undefined {
  const first = Array.isArray(value) ? (value as readonly SearchValue[])[0] : value;
  return typeof first === 'number' ? first : undefined;
}

/** One FIELDVALUE's value for a document: modifier(factor × value); an impossible result (log 0) counts 0. */
function fieldValueScore(spec: ScoreFieldValue, document: IndexedDocument): number {
  const value = firstNumber(document.value(spec.field.path)) ?? spec.missing ?? 0;
  const result = MODIFIERS[spec.modifier](spec.factor * value);
  return Number.isFinite(result) ? result : 0;
}

export function applyScoreFunction(fn: ScoreFunction, score: number, document: IndexedDocument): number {
  const values = fn.fields.map((spec) => fieldValueScore(spec, document));
  const combined =
    fn.combineMode === 'SUM' ? values.reduce((a, b) => a + b, 0) : values.reduce((a, b) => a * b, 1);
  if (fn.scoreMode === 'REPLACE') return combined;
  return fn.scoreMode === 'SUM' ? score + combined : score * combined;
}

/**
 * Keys in the order people number them (`doc:2` before `doc:10`): the tie-break between equal scores, where
 * Tantivy keeps the order documents were indexed in — which the emulation does not know.
 */
export function compareKeys(a: string, b: string): number {
  return compareParts(keyParts(a), keyParts(b), a, b);
}

/** A key cut into runs of digits and runs of anything else. */
function keyParts(key: string): string[] {
  return key.match(/(\d+)|(\D+)/g) ?? [];
}

function compareParts(x: readonly string[], y: readonly string[], a: string, b: string): number {
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const p = x[i]!;
    const q = y[i]!;
    if (p === q) continue;
    const bothNumbers = /^\d/.test(p) && /^\d/.test(q);
    if (bothNumbers && p.length !== q.length) return p.length - q.length;
    return p < q ? -1 : 1;
  }
  return x.length - y.length || (a < b ? -1 : a > b ? 1 : 0);
}

function orderValue(document: IndexedDocument, field: SearchField): SearchValue | undefined {
  const value = document.value(field.path);
  return Array.isArray(value) ? (value as readonly SearchValue[])[0] : (value as SearchValue | undefined);
}

/** Scores adjusted, hits ordered and the requested page cut out. */
export function rank(hits: Hit[], options: QueryOptions): Hit[] {
  if (options.scoreFunction) {
    for (const hit of hits) hit.score = applyScoreFunction(options.scoreFunction, hit.score, hit.document);
  }
  // Most hits tie with some other (ORDERBY values, constant scores): the keys' parts are split once per hit.
  const parts = new Map(hits.map((hit) => [hit, keyParts(hit.document.key)]));
  const byKey = (a: Hit, b: Hit): number =>
    compareParts(parts.get(a)!, parts.get(b)!, a.document.key, b.document.key);
  if (options.orderBy.length > 0) {
    hits.sort((a, b) => {
      for (const { field, descending } of options.orderBy) {
        const x = orderValue(a.document, field);
        const y = orderValue(b.document, field);
        // Documents without the field come last whichever the direction.
        if (x === undefined || y === undefined) {
          if (x !== y) return x === undefined ? 1 : -1;
          continue;
        }
        // KEYWORD values by code units, as filters compare them (Tantivy: by bytes), not by locale.
        const order =
          typeof x === 'string' || typeof y === 'string'
            ? String(x) < String(y)
              ? -1
              : String(x) > String(y)
                ? 1
                : 0
            : Number(x) - Number(y);
        if (order !== 0) return descending ? -order : order;
      }
      return byKey(a, b);
    });
    // The hosted docs: with ORDERBY, a result's score is the sort field's value, not its relevance.
    const first = options.orderBy[0]!.field;
    for (const hit of hits) {
      const value = orderValue(hit.document, first);
      hit.score = typeof value === 'number' ? value : typeof value === 'boolean' ? Number(value) : 0;
    }
  } else {
    hits.sort((a, b) => b.score - a.score || byKey(a, b));
  }
  return hits.slice(options.offset, options.offset + options.limit);
}

const bulk = (value: string): Buffer => Buffer.from(value, 'utf8');

/** A stored value as the reply carries it: text as it is, anything else as JSON (the SDK parses it back). */
function encodeValue(value: unknown): Buffer {
  return bulk(typeof value === 'string' ? value : JSON.stringify(value));
}

/** The tags around every word of `text` whose term matched. */
function highlightText(
  text: string,
  field: SearchField,
  index: SearchIndexDefinition,
  terms: Set<string>,
  tags: { preTag: string; postTag: string },
): string {
  const tokens = analyze(text, {
    noTokenize: field.noTokenize,
    noStem: field.noStem,
    language: index.language,
  });
  let out = '';
  let at = 0;
  for (const token of tokens) {
    if (!terms.has(token.term)) continue;
    out += text.slice(at, token.start) + tags.preTag + text.slice(token.start, token.end) + tags.postTag;
    at = token.end;
  }
  return out + text.slice(at);
}

function highlightValue(
  value: unknown,
  field: SearchField,
  index: SearchIndexDefinition,
  terms: Set<string>,
  tags: { preTag: string; postTag: string },
): unknown {
  if (typeof value === 'string') return highlightText(value, field, index, terms, tags);
  if (Array.isArray(value)) return value.map((item) => highlightValue(item, field, index, terms, tags));
  return value;
}

/** The value at a dotted path replaced in a copy of a JSON document. */
function replaced(root: unknown, path: string, change: (value: unknown) => unknown): unknown {
  const parts = path.split('.');
  const walk = (node: unknown, depth: number): unknown => {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return node;
    const record = node as Record<string, unknown>;
    const part = parts[depth]!;
    if (!(part in record)) return node;
    const next = depth === parts.length - 1 ? change(record[part]) : walk(record[part], depth + 1);
    return { ...record, [part]: next };
  };
  return walk(root, 0);
}

/** One hit as the reply lists it. */
export function hitReply(hit: Hit, options: QueryOptions, index: SearchIndexDefinition): RespValue {
  const { document } = hit;
  const head = [bulk(document.key), bulk(String(hit.score))];
  if (options.noContent) return head;
  const fields = new Map(index.fields.map((field) => [field.path, field]));
  const highlights = new Map<string, { field: SearchField; terms: Set<string> }>();
  for (const path of options.highlight?.fields ?? []) {
    const field = fields.get(path);
    const terms = hit.matched.get(path);
    if (field?.type === 'TEXT' && terms) highlights.set(path, { field, terms });
  }
  const tags = options.highlight ?? { preTag: '', postTag: '' };
  if (options.select) {
    const pairs: RespValue[] = [];
    for (const path of options.select) {
      const field = fields.get(path);
      let value = document.source(field?.from ?? path);
      if (value === undefined) continue;
      const highlight = highlights.get(path);
      if (highlight) value = highlightValue(value, highlight.field, index, highlight.terms, tags);
      pairs.push([bulk(path), encodeValue(value)]);
    }
    return [...head, pairs];
  }
  const { content } = document;
  if (content.kind === 'hash') {
    const values = new Map(content.fields);
    for (const { field, terms } of highlights.values()) {
      const source = field.from ?? field.path;
      const value = values.get(source);
      if (value !== undefined) values.set(source, highlightText(value, field, index, terms, tags));
    }
    return [...head, [...values].map(([name, value]) => [bulk(name), bulk(value)])];
  }
  let json = content.value;
  for (const { field, terms } of highlights.values()) {
    json = replaced(json, field.from ?? field.path, (value) =>
      highlightValue(value, field, index, terms, tags),
    );
  }
  return [...head, [[bulk('$'), bulk(JSON.stringify(json))]]];
}
