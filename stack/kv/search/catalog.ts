// The search indexes and aliases the SEARCH.* emulation knows, kept in the stack's own store (the settings
// table of `<dataDir>/stack.db`, key `kv.search`), never in Redis: they survive a restart of the stack, and
// SCAN, KEYS and DBSIZE see no key of theirs. FLUSHALL and FLUSHDB leave them alone — an index over no keys
// simply matches nothing until keys under its prefixes are written again.
import type { SecretSettings } from '../credentials';
import { KvUnavailableError } from '../errors';
import type { SearchIndexDefinition } from './types';

/** The settings key of the catalog. */
export const SEARCH_CATALOG_KEY = 'kv.search';

interface StoredCatalog {
  version: 1;
  indexes: SearchIndexDefinition[];
  /** alias → index name. */
  aliases: Record<string, string>;
}

export class SearchCatalog {
  private readonly indexes = new Map<string, SearchIndexDefinition>();
  private readonly aliases = new Map<string, string>();

  constructor(private readonly settings: SecretSettings) {
    const stored = settings.get(SEARCH_CATALOG_KEY);
    if (stored === undefined) return;
    let parsed: StoredCatalog;
    try {
      parsed = JSON.parse(stored) as StoredCatalog;
    } catch (error) {
      // Stops the KV service with this message rather than starting without the user's indexes.
      throw new KvUnavailableError(
        `the search indexes in the stack's store (settings '${SEARCH_CATALOG_KEY}') are unreadable ` +
          `(${(error as Error).message}); delete that row to start without indexes`,
      );
    }
    for (const index of parsed.indexes ?? []) {
      // Fields stored without `from` come back without the key: the shape wants it present.
      index.fields = index.fields.map((field) => ({ ...field, from: field.from ?? undefined }));
      this.indexes.set(index.name, index);
    }
    for (const [alias, index] of Object.entries(parsed.aliases ?? {})) this.aliases.set(alias, index);
  }

  /** The index of that name, or the one an alias of that name points to. */
  resolve(nameOrAlias: string): SearchIndexDefinition | undefined {
    const index = this.indexes.get(nameOrAlias);
    if (index) return index;
    const target = this.aliases.get(nameOrAlias);
    return target === undefined ? undefined : this.indexes.get(target);
  }

  /** Every index, in the order they were created. */
  list(): SearchIndexDefinition[] {
    return [...this.indexes.values()];
  }

  /** The index of that name (not an alias). */
  get(name: string): SearchIndexDefinition | undefined {
    return this.indexes.get(name);
  }

  create(definition: SearchIndexDefinition): void {
    this.indexes.set(definition.name, definition);
    this.save();
  }

  /** Whether an index of that name was there. Aliases pointing to it stay (as SEARCH.ALIASADD allows aliases of missing indexes). */
  drop(name: string): boolean {
    if (!this.indexes.delete(name)) return false;
    this.save();
    return true;
  }

  /** 1 when the alias is new, 2 when it pointed elsewhere (or to the same index) before. */
  addAlias(alias: string, index: string): 1 | 2 {
    const existed = this.aliases.has(alias);
    this.aliases.set(alias, index);
    this.save();
    return existed ? 2 : 1;
  }

  deleteAlias(alias: string): boolean {
    if (!this.aliases.delete(alias)) return false;
    this.save();
    return true;
  }

  listAliases(): [string, string][] {
    return [...this.aliases.entries()];
  }

  private save(): void {
    const catalog: StoredCatalog = {
      version: 1,
      indexes: [...this.indexes.values()],
      aliases: Object.fromEntries(this.aliases),
    };
    this.settings.set(SEARCH_CATALOG_KEY, JSON.stringify(catalog));
  }
}
