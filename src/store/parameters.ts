// System parameters (sid '') and project parameters (sid = project id), values stored as JSON text.
import type { Kysely } from 'kysely';
import type { Tables } from './tables.js';

export interface StoredParameter {
  sid: string;
  name: string;
  value: unknown;
  updatedAt: string;
}

export class ParameterStore {
  constructor(private readonly db: Kysely<Tables>) {}

  async set(sid: string, name: string, value: unknown): Promise<StoredParameter> {
    const row = { sid, name, value: JSON.stringify(value), updated_at: new Date().toISOString() };
    await this.db
      .insertInto('parameters')
      .values(row)
      .onConflict((oc) => oc.columns(['sid', 'name']).doUpdateSet({ value: row.value, updated_at: row.updated_at }))
      .execute();
    return { sid, name, value, updatedAt: row.updated_at };
  }

  async get(sid: string, name: string): Promise<StoredParameter | undefined> {
    const row = await this.db
      .selectFrom('parameters')
      .selectAll()
      .where('sid', '=', sid)
      .where('name', '=', name)
      .executeTakeFirst();
    return row && { sid: row.sid, name: row.name, value: JSON.parse(row.value), updatedAt: row.updated_at };
  }

  /** Removes a parameter; answers whether it was set. */
  async delete(sid: string, name: string): Promise<boolean> {
    const result = await this.db.deleteFrom('parameters').where('sid', '=', sid).where('name', '=', name).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async list(sid: string): Promise<StoredParameter[]> {
    const rows = await this.db.selectFrom('parameters').selectAll().where('sid', '=', sid).orderBy('name').execute();
    return rows.map((row) => ({ sid: row.sid, name: row.name, value: JSON.parse(row.value), updatedAt: row.updated_at }));
  }
}
