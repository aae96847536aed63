// Upstash SEARCH.* (the hosted service's full-text and secondary index over hashes, JSON documents and JSON
// strings), emulated by the bridge: the shapes shared by the module's parts (index definitions, the documents
// a query matched, the values aggregations and filters read).

/** A schema field's type, as `SEARCH.CREATE … SCHEMA path TYPE` spells it. */
export type SearchFieldType = 'TEXT' | 'U64' | 'I64' | 'F64' | 'BOOL' | 'DATE' | 'KEYWORD' | 'FACET';

/** One field of an index's schema. */
export interface SearchField {
  /** The field's name in the index (dotted for nested schemas: `address.city`). */
  path: string;
  type: SearchFieldType;
  fast: boolean;
  noTokenize: boolean;
  noStem: boolean;
  /** `FROM source`: where in the stored document the value is read (dotted), when not at `path`. */
  from: string | undefined;
}

/** An index as `SEARCH.CREATE` defined it. */
export interface SearchIndexDefinition {
  name: string;
  dataType: 'hash' | 'json' | 'string';
  prefixes: string[];
  /** `LANGUAGE` (stemming); `english` when not given. */
  language: string;
  fields: SearchField[];
}

/**
 * A field's value in a document, converted to its schema type: TEXT, KEYWORD and FACET a string, the numeric
 * types a number, BOOL a boolean, DATE the instant in unix milliseconds. A field stored as an array has each of
 * its values.
 */
export type SearchValue = string | number | boolean;

/** A document an index holds, as filters, ordering and aggregations read it. */
export interface SearchDocument {
  key: string;
  /** The field's value(s) (`path` as in SearchField), or undefined when the document has none that converts. */
  value(path: string): SearchValue | readonly SearchValue[] | undefined;
}
