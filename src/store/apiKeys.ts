// API keys: made and revoked with the CLI or over HTTP (api/routes/keys.ts), stored as SHA-256 hashes (keys are
// 256 random bits, so a fast hash is safe; nothing that could recover a key is kept).
import crypto from 'node:crypto';
import { type Kysely, PostgresAdapter, sql } from 'kysely';
import type { ApiKeyRow, Tables } from './tables.js';

export const SCOPES = ['read', 'submit', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

/** Scopes are ordered: admin may do what submit may, submit what read may. */
export function scopeAllows(granted: Scope, required: Scope): boolean {
  return SCOPES.indexOf(granted) >= SCOPES.indexOf(required);
}

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** How every key begins: a key written where it does not belong (a URL, a message) is recognisable, and censored in logs. */
export const API_KEY_PREFIX = 'slk_';

export function hashKey(key: string): string {
  return crypto.createHash('sha256').update(key).digest('hex');
}

export interface ApiKeyInfo {
  id: string;
  name: string;
  scope: Scope;
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

function toInfo(row: ApiKeyRow): ApiKeyInfo {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope as Scope,
    prefix: row.key_prefix,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
    lastUsedAt: row.last_used_at,
  };
}

/** Lock key of key revocations checked against the last admin key (pg_advisory_xact_lock). */
const REVOCATION_LOCK = 19_020;

export type GuardedRevocation = { revoked: ApiKeyInfo } | { refused: 'not_found' | 'last_admin' };

export class ApiKeyStore {
  private readonly postgres: boolean;

  constructor(private readonly db: Kysely<Tables>) {
    this.postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  }

  /** Returns the key itself once; only its hash is stored. */
  async create(name: string, scope: Scope): Promise<ApiKeyInfo & { key: string }> {
    const key = `${API_KEY_PREFIX}${crypto.randomBytes(32).toString('base64url')}`;
    const row: ApiKeyRow = {
      id: crypto.randomUUID(),
      name,
      scope,
      key_hash: hashKey(key),
      key_prefix: key.slice(0, 10),
      created_at: new Date().toISOString(),
      revoked_at: null,
      last_used_at: null,
    };
    await this.db.insertInto('api_keys').values(row).execute();
    return { ...toInfo(row), key };
  }

  async list(): Promise<ApiKeyInfo[]> {
    const rows = await this.db.selectFrom('api_keys').selectAll().orderBy('created_at').execute();
    return rows.map(toInfo);
  }

  /** Revoke by id or by the key's visible prefix; answers whether a key was revoked. */
  async revoke(idOrPrefix: string): Promise<boolean> {
    const result = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: new Date().toISOString() })
      .where((eb) => eb.or([eb('id', '=', idOrPrefix), eb('key_prefix', '=', idOrPrefix)]))
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Revoke one active key by id, unless it is the last active admin key: the check and the revocation are one
   * transaction, serialized across processes (PostgreSQL: an advisory lock; SQLite: one writer at a time), so two
   * admins revoking each other's keys at once cannot both succeed and leave none.
   */
  async revokeUnlessLastAdmin(id: string): Promise<GuardedRevocation> {
    const run = async (db: Kysely<Tables>): Promise<GuardedRevocation> => {
      if (this.postgres) await sql`select pg_advisory_xact_lock(${REVOCATION_LOCK})`.execute(db);
      const target = await db.selectFrom('api_keys').selectAll().where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
      if (!target) return { refused: 'not_found' };
      if (target.scope === 'admin') {
        const admins = await db
          .selectFrom('api_keys')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('scope', '=', 'admin')
          .where('revoked_at', 'is', null)
          .executeTakeFirstOrThrow();
        if (Number(admins.n) <= 1) return { refused: 'last_admin' };
      }
      const revokedAt = new Date().toISOString();
      await db.updateTable('api_keys').set({ revoked_at: revokedAt }).where('id', '=', id).where('revoked_at', 'is', null).execute();
      return { revoked: toInfo({ ...target, revoked_at: revokedAt }) };
    };
    return this.db.isTransaction ? run(this.db) : this.db.transaction().execute(run);
  }

  async findActive(key: string): Promise<ApiKeyInfo | undefined> {
    const row = await this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('key_hash', '=', hashKey(key))
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return row ? toInfo(row) : undefined;
  }

  async countActive(): Promise<number> {
    const row = await this.db
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('revoked_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async touch(id: string): Promise<void> {
    await this.db.updateTable('api_keys').set({ last_used_at: new Date().toISOString() }).where('id', '=', id).execute();
  }
}
