// Schema migrations, applied in order by Kysely's migrator on SQLite and PostgreSQL alike.
import { type Kysely, type Migration, type MigrationProvider, sql } from 'kysely';
import type { Dialect } from './database.js';

export function migrations(dialect: Dialect): Record<string, Migration> {
  return {
    '0001_foundation': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('api_keys')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('scope', 'text', (c) => c.notNull())
          .addColumn('key_hash', 'text', (c) => c.notNull().unique())
          .addColumn('key_prefix', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('revoked_at', 'text')
          .addColumn('last_used_at', 'text')
          .execute();
        await db.schema
          .createTable('parameters')
          .addColumn('sid', 'text', (c) => c.notNull())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('value', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('parameters_pk', ['sid', 'name'])
          .execute();
        await db.schema
          .createTable('project_versions')
          .addColumn('sid', 'text', (c) => c.notNull())
          .addColumn('version', 'integer', (c) => c.notNull())
          .addColumn('config', 'text', (c) => c.notNull())
          .addColumn('published_at', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('project_versions_pk', ['sid', 'version'])
          .execute();
        await db.schema
          .createTable('conversations')
          .addColumn('event_id', 'text', (c) => c.primaryKey())
          .addColumn('conversation_id', 'text')
          .addColumn('job_id', 'text')
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('record', 'text', (c) => c.notNull())
          .addColumn('size', 'integer', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('conversations_updated').on('conversations').column('updated_at').execute();
        await db.schema
          .createTable('live_messages')
          .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (c) =>
            dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
          )
          .addColumn('conversation_key', 'text', (c) => c.notNull())
          .addColumn('message', 'text', (c) => c.notNull())
          .addColumn('received_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('live_messages_key').on('live_messages').columns(['conversation_key', 'id']).execute();
        await db.schema
          .createTable('events')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('type', 'text', (c) => c.notNull())
          .addColumn('sub_type', 'text', (c) => c.notNull())
          .addColumn('subject', 'text')
          .addColumn('record', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('events_created').on('events').column('created_at').execute();
        void sql; // kept for later migrations that need raw SQL
      },
    },
  };
}

export function migrationProvider(dialect: Dialect): MigrationProvider {
  return { getMigrations: async () => migrations(dialect) };
}
