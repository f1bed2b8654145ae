// The entries of the cache as one list: the configuration in force per project, parameters, stored
// conversation records and live conversations, each with its key, kind, size and last change.
import { type Kysely, sql } from 'kysely';
import type { Tables } from './tables.js';

export const CACHE_KINDS = ['project', 'parameter', 'conversation', 'live'] as const;
export type CacheKind = (typeof CACHE_KINDS)[number];

export interface CacheEntry {
  key: string;
  kind: CacheKind;
  size: number;
  updatedAt: string;
  version?: number;
}

export interface CacheListQuery {
  kind?: CacheKind;
  prefix?: string;
  limit: number;
  offset: number;
}

export class CacheEntryStore {
  constructor(private readonly db: Kysely<Tables>) {}

  private union() {
    const db = this.db;
    const projects = db
      .selectFrom('project_versions as p')
      .where('p.version', '=', (eb) =>
        eb.selectFrom('project_versions as q').select((q) => q.fn.max('q.version').as('v')).whereRef('q.sid', '=', 'p.sid'),
      )
      .select((eb) => [
        sql<string>`'project:' || p.sid`.as('key'),
        sql<string>`'project'`.as('kind'),
        eb.fn<number>('length', ['p.config']).as('size'),
        'p.published_at as updated_at',
        sql<number | null>`p.version`.as('version'),
      ]);
    const parameters = db.selectFrom('parameters').select((eb) => [
      sql<string>`'parameter:' || (case when sid = '' then 'system' else sid end) || ':' || name`.as('key'),
      sql<string>`'parameter'`.as('kind'),
      eb.fn<number>('length', ['value']).as('size'),
      'updated_at',
      sql<number | null>`null`.as('version'),
    ]);
    const conversations = db.selectFrom('conversations').select([
      sql<string>`'conversation:' || event_id`.as('key'),
      sql<string>`'conversation'`.as('kind'),
      'size',
      'updated_at',
      sql<number | null>`null`.as('version'),
    ]);
    const live = db
      .selectFrom('live_messages')
      .groupBy('conversation_key')
      .select((eb) => [
        sql<string>`'live:' || conversation_key`.as('key'),
        sql<string>`'live'`.as('kind'),
        eb.fn.sum<number>(eb.fn('length', ['message'])).as('size'),
        eb.fn.max('received_at').as('updated_at'),
        sql<number | null>`null`.as('version'),
      ]);
    return db.selectFrom(projects.unionAll(parameters).unionAll(conversations).unionAll(live).as('entries'));
  }

  private filtered(query: CacheListQuery) {
    let q = this.union();
    if (query.kind) q = q.where('kind', '=', query.kind);
    // A prefix is literal and case-sensitive on both databases: LIKE would take `_` and `%` as wildcards (SQLite
    // has no default escape character and folds ASCII case; PostgreSQL escapes with `\` and does not fold).
    if (query.prefix) q = q.where(sql<string>`substr(key, 1, ${[...query.prefix].length})`, '=', query.prefix);
    return q;
  }

  async list(query: CacheListQuery): Promise<{ total: number; entries: CacheEntry[] }> {
    const totalRow = await this.filtered(query)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    const rows = await this.filtered(query)
      .selectAll()
      .orderBy('updated_at', 'desc')
      .orderBy('key')
      .limit(query.limit)
      .offset(query.offset)
      .execute();
    return {
      total: Number(totalRow.n),
      entries: rows.map((row) => ({
        key: row.key,
        kind: row.kind as CacheKind,
        size: Number(row.size),
        updatedAt: row.updated_at as string,
        ...(row.version !== null && row.version !== undefined && { version: Number(row.version) }),
      })),
    };
  }

  async summary(): Promise<Record<CacheKind, { entries: number; bytes: number }>> {
    const rows = await this.union()
      .select((eb) => ['kind', eb.fn.countAll<number | string>().as('n'), eb.fn.sum<number | string>('size').as('bytes')])
      .groupBy('kind')
      .execute();
    const out = Object.fromEntries(CACHE_KINDS.map((k) => [k, { entries: 0, bytes: 0 }])) as Record<CacheKind, { entries: number; bytes: number }>;
    for (const row of rows) out[row.kind as CacheKind] = { entries: Number(row.n), bytes: Number(row.bytes ?? 0) };
    return out;
  }
}
