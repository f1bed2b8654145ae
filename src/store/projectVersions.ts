// Published project configurations, one row per version; the highest version of a sid is in force.
import type { Kysely } from 'kysely';
import type { ProjectConfig } from '../schema/resources/projectConfig.js';
import type { Tables } from './tables.js';

export interface ProjectVersion {
  sid: string;
  version: number;
  config: ProjectConfig;
  publishedAt: string;
}

export class ProjectVersionStore {
  constructor(private readonly db: Kysely<Tables>) {}

  /** Store a new version; concurrent publishers of one sid retry on the primary-key clash. */
  async publish(config: ProjectConfig): Promise<ProjectVersion> {
    for (let attempt = 0; ; attempt++) {
      const latest = await this.latest(config.sid);
      const version = (latest?.version ?? 0) + 1;
      const publishedAt = new Date().toISOString();
      try {
        await this.db
          .insertInto('project_versions')
          .values({ sid: config.sid, version, config: JSON.stringify(config), published_at: publishedAt })
          .execute();
        return { sid: config.sid, version, config, publishedAt };
      } catch (error) {
        if (attempt >= 5) throw error;
      }
    }
  }

  async latest(sid: string): Promise<ProjectVersion | undefined> {
    const row = await this.db
      .selectFrom('project_versions')
      .selectAll()
      .where('sid', '=', sid)
      .orderBy('version', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row && { sid: row.sid, version: Number(row.version), config: JSON.parse(row.config), publishedAt: row.published_at };
  }

  async versions(sid: string): Promise<Omit<ProjectVersion, 'config'>[]> {
    const rows = await this.db
      .selectFrom('project_versions')
      .select(['sid', 'version', 'published_at'])
      .where('sid', '=', sid)
      .orderBy('version', 'desc')
      .execute();
    return rows.map((row) => ({ sid: row.sid, version: Number(row.version), publishedAt: row.published_at }));
  }

  /** Every version of a project with its configuration, newest first. */
  async history(sid: string, limit: number): Promise<ProjectVersion[]> {
    const rows = await this.db.selectFrom('project_versions').selectAll().where('sid', '=', sid).orderBy('version', 'desc').limit(limit).execute();
    return rows.map((row) => ({ sid: row.sid, version: Number(row.version), config: JSON.parse(row.config), publishedAt: row.published_at }));
  }

  /** The projects that have a published version: each sid with its latest version, by sid. */
  async projects(limit: number, offset: number): Promise<{ total: number; projects: Omit<ProjectVersion, 'config'>[] }> {
    const total = await this.db.selectFrom('project_versions').select((eb) => eb.fn.count<number | string>('sid').distinct().as('n')).executeTakeFirstOrThrow();
    const rows = await this.db
      .selectFrom('project_versions')
      .select((eb) => ['sid', eb.fn.max('version').as('version'), eb.fn.max('published_at').as('published_at')])
      .groupBy('sid')
      .orderBy('sid')
      .limit(limit)
      .offset(offset)
      .execute();
    return { total: Number(total.n), projects: rows.map((row) => ({ sid: row.sid, version: Number(row.version), publishedAt: String(row.published_at) })) };
  }
}
