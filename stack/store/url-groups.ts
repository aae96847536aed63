// The `url_groups` and `url_group_endpoints` tables: named fan-out targets with their default headers.
import type { HeaderMap, UrlGroup } from '../../shared/messages/types';
import type { Params, Statements } from './statements';

/** A group as the API returns it (`GET /v2/topics/{name}`): the record is the wire object. */
export type UrlGroupRecord = UrlGroup;

interface GroupRow {
  name: string;
  created_at: number;
  updated_at: number;
  headers: string | null;
}

export class UrlGroupTable {
  constructor(private readonly sql: Statements) {}

  get(name: string): UrlGroupRecord | undefined {
    return this.sql.one(
      'SELECT * FROM url_groups WHERE name = ?',
      (row: GroupRow) => this.toGroup(row),
      name,
    );
  }

  list(): UrlGroupRecord[] {
    return this.sql.all('SELECT * FROM url_groups ORDER BY name', (row: GroupRow) => this.toGroup(row));
  }

  /** Creates the group if needed; endpoints are matched by name (when given) or URL and updated in place. */
  addEndpoints(group: string, endpoints: { name?: string; url: string }[], now: number): void {
    this.sql
      .get(
        `INSERT INTO url_groups (name, created_at, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET updated_at = excluded.updated_at`,
      )
      .run(group, now, now);
    for (const endpoint of endpoints) {
      if (endpoint.name !== undefined) {
        this.sql
          .get('DELETE FROM url_group_endpoints WHERE group_name = ? AND name = ? AND url <> ?')
          .run(group, endpoint.name, endpoint.url);
      }
      const position =
        (
          this.sql
            .get('SELECT max(position) AS p FROM url_group_endpoints WHERE group_name = ?')
            .get(group) as {
            p: number | null;
          }
        ).p ?? -1;
      this.sql
        .get(
          `INSERT INTO url_group_endpoints (group_name, position, name, url) VALUES (?, ?, ?, ?)
           ON CONFLICT (group_name, url) DO UPDATE SET name = coalesce(excluded.name, name)`,
        )
        .run(group, position + 1, endpoint.name ?? null, endpoint.url);
    }
  }

  /** Removes matching endpoints; deletes the group when none is left. Returns how many were removed. */
  removeEndpoints(group: string, endpoints: { name?: string; url?: string }[], now: number): number {
    let removed = 0;
    for (const endpoint of endpoints) {
      const clauses: string[] = [];
      const params: Params = { group };
      if (endpoint.name !== undefined) {
        clauses.push('name = @name');
        params.name = endpoint.name;
      }
      if (endpoint.url !== undefined) {
        clauses.push('url = @url');
        params.url = endpoint.url;
      }
      removed += this.sql
        .get(`DELETE FROM url_group_endpoints WHERE group_name = @group AND ${clauses.join(' AND ')}`)
        .run(params).changes;
    }
    const left = (
      this.sql.get('SELECT count(*) AS n FROM url_group_endpoints WHERE group_name = ?').get(group) as {
        n: number;
      }
    ).n;
    if (left === 0) this.delete(group);
    else this.sql.get('UPDATE url_groups SET updated_at = ? WHERE name = ?').run(now, group);
    return removed;
  }

  setHeaders(group: string, headers: HeaderMap, now: number): boolean {
    return (
      this.sql
        .get('UPDATE url_groups SET headers = ?, updated_at = ? WHERE name = ?')
        .run(Object.keys(headers).length > 0 ? JSON.stringify(headers) : null, now, group).changes > 0
    );
  }

  delete(name: string): boolean {
    return this.sql.get('DELETE FROM url_groups WHERE name = ?').run(name).changes > 0;
  }

  private toGroup(row: GroupRow): UrlGroupRecord {
    const endpoints = this.sql
      .get('SELECT name, url FROM url_group_endpoints WHERE group_name = ? ORDER BY position')
      .all(row.name) as { name: string | null; url: string }[];
    const group: UrlGroupRecord = {
      name: row.name,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      endpoints: endpoints.map((endpoint) =>
        endpoint.name === null ? { url: endpoint.url } : { name: endpoint.name, url: endpoint.url },
      ),
    };
    // Only a group with default headers has the field (the API leaves it out, not null).
    if (row.headers) group.headers = JSON.parse(row.headers) as HeaderMap;
    return group;
  }
}
