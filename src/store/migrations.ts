// Schema migrations, applied in order by Kysely's migrator on SQLite and PostgreSQL alike.
import { type Kysely, type Migration, type MigrationProvider, sql } from 'kysely';
import type { Dialect } from './dialect.js';

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
    '0002_jobs': {
      async up(db: Kysely<unknown>) {
        const real = dialect === 'postgres' ? 'double precision' : 'real';
        await db.schema
          .createTable('jobs')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('redaction_status', 'text', (c) => c.notNull())
          .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('sid', 'text')
          .addColumn('model', 'text')
          .addColumn('file_name', 'text')
          .addColumn('audio_path', 'text')
          .addColumn('input_kind', 'text', (c) => c.notNull())
          .addColumn('record', 'text', (c) => c.notNull())
          .addColumn('params', 'text', (c) => c.notNull())
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('last_error', 'text')
          .addColumn('worker_id', 'text')
          .addColumn('lease_until', 'text')
          .addColumn('audio_seconds', sql.raw(real))
          .addColumn('processing_seconds', sql.raw(real))
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .addColumn('started_at', 'text')
          .addColumn('completed_at', 'text')
          .execute();
        await db.schema.createIndex('jobs_queue').on('jobs').columns(['status', 'priority', 'created_at']).execute();
        await db.schema.createIndex('jobs_created').on('jobs').column('created_at').execute();
        await db.schema
          .createTable('job_results')
          .addColumn('job_id', 'text', (c) => c.primaryKey())
          .addColumn('transcript', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('deliveries')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('job_id', 'text', (c) => c.notNull())
          .addColumn('url', 'text', (c) => c.notNull())
          .addColumn('method', 'text', (c) => c.notNull())
          .addColumn('headers', 'text', (c) => c.notNull())
          .addColumn('payload', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('next_attempt_at', 'text', (c) => c.notNull())
          .addColumn('log', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('deliveries_due').on('deliveries').columns(['status', 'next_attempt_at']).execute();
        await db.schema.createIndex('deliveries_job').on('deliveries').column('job_id').execute();
      },
    },
    '0003_job_retention': {
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable('jobs').addColumn('delete_after', 'text').execute();
        await db.schema.createIndex('jobs_delete_after').on('jobs').column('delete_after').execute();
      },
    },
    '0004_redaction_spans': {
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable('job_results').addColumn('redaction', 'text').execute();
      },
    },
    '0005_run_fences': {
      async up(db: Kysely<unknown>) {
        // The claim token every write of a job run is fenced by (store/jobs.ts, JobRun).
        await db.schema.alterTable('jobs').addColumn('run_id', 'text').execute();
        // Results and deliveries belong to their job: deleted with it, and never written for a job that is
        // gone. Rows of jobs deleted before this migration are dropped first, so the constraint can hold.
        for (const table of ['job_results', 'deliveries']) {
          await sql`delete from ${sql.table(table)} where job_id not in (select id from jobs)`.execute(db);
          if (dialect === 'postgres') {
            await sql`alter table ${sql.table(table)} add constraint ${sql.id(`${table}_job_fk`)} foreign key (job_id) references jobs (id) on delete cascade`.execute(db);
          } else {
            await addSqliteJobForeignKey(db, table);
          }
        }
        // Events outlive their job: they are the audit trail (`job/deleted` is recorded when the job is gone, and
        // `GET /system/events?subject=<jobId>` must still list the job's history). So an event keeps the job id in
        // its subject and record, and its job_id link is set to null when the job is deleted, not cascaded.
        await db.schema.alterTable('events').addColumn('job_id', 'text', (c) => c.references('jobs.id').onDelete('set null')).execute();
        await sql`update events set job_id = subject where type = 'job' and subject in (select id from jobs)`.execute(db);
        await db.schema.createIndex('events_job').on('events').column('job_id').execute();
      },
    },
    // Honest figures (issue 15): when insights were produced for a job (insightsProcessed is derived from it),
    // and the heartbeat rows of the processes that run jobs (capacity summed over the cluster).
    '0006_figures_insights_at_and_worker_processes': {
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable('jobs').addColumn('insights_completed_at', 'text').execute();
        await db.schema
          .createTable('worker_processes')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('role', 'text', (c) => c.notNull())
          .addColumn('host', 'text', (c) => c.notNull())
          .addColumn('pid', 'integer', (c) => c.notNull())
          .addColumn('job_slots', 'integer', (c) => c.notNull())
          .addColumn('jobs_running', 'integer', (c) => c.notNull())
          .addColumn('max_streams', 'integer', (c) => c.notNull())
          .addColumn('decoders', 'integer', (c) => c.notNull())
          .addColumn('decoders_busy', 'integer', (c) => c.notNull())
          .addColumn('decoders_waiting', 'integer', (c) => c.notNull())
          .addColumn('started_at', 'text', (c) => c.notNull())
          .addColumn('heartbeat_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('worker_processes_heartbeat').on('worker_processes').column('heartbeat_at').execute();
      },
    },
    // Job lists filtered by the client's reference (issue 22): tracking_id in a column of its own, indexed,
    // filled for the jobs already there from their stored parameters; listing by project or time uses sid and
    // created_at, indexed here too.
    '0007_jobs_tracking_id': {
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable('jobs').addColumn('tracking_id', 'text').execute();
        if (dialect === 'postgres') {
          await sql`update jobs set tracking_id = params::jsonb->>'tracking_id' where params::jsonb ? 'tracking_id'`.execute(db);
        } else {
          await sql`update jobs set tracking_id = json_extract(params, '$.tracking_id') where json_valid(params) and json_type(params, '$.tracking_id') = 'text'`.execute(db);
        }
        await db.schema.createIndex('jobs_tracking_id').on('jobs').columns(['tracking_id', 'created_at']).execute();
        await db.schema.createIndex('jobs_sid_created').on('jobs').columns(['sid', 'created_at']).execute();
      },
    },
    // Live streams (issue 19): one row per stream open anywhere in the cluster, refreshed by its process, so that
    // admission and /asr/maxstreamscheck count streams across processes.
    '0008_live_streams': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('live_streams')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('process_id', 'text', (c) => c.notNull())
          .addColumn('process_capacity', 'integer', (c) => c.notNull())
          .addColumn('protocol', 'text', (c) => c.notNull())
          .addColumn('started_at', 'text', (c) => c.notNull())
          .addColumn('heartbeat_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('live_streams_heartbeat').on('live_streams').column('heartbeat_at').execute();
      },
    },
    // The transcript a live stream sent (issue 19): its redacted finals, as sent, under the stream's id. Not
    // live_messages: that table is real-call's conversations (keyed by engagementId/ucid), which its idle sweep
    // turns into post-call records; a stream already has its after-call job.
    '0009_stream_messages': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('stream_messages')
          .addColumn('stream_id', 'text', (c) => c.notNull())
          .addColumn('sequence', 'integer', (c) => c.notNull())
          .addColumn('channel', 'integer', (c) => c.notNull())
          .addColumn('message', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('stream_messages_pk', ['stream_id', 'sequence'])
          .execute();
      },
    },
    // A stream without an after-call job keeps its transcript for its project's retentionPolicy (the messages of
    // a stream with a job go with the job): when each message is to be deleted, null to keep it.
    '0010_stream_messages_retention': {
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable('stream_messages').addColumn('delete_after', 'text').execute();
        await db.schema.createIndex('stream_messages_delete_after').on('stream_messages').column('delete_after').execute();
      },
    },
    // Post-call records under a retentionPolicy (their campaign's, their project's: the shorter) are deleted when due.
    '0011_conversations_retention': {
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable('conversations').addColumn('delete_after', 'text').execute();
        await db.schema.createIndex('conversations_delete_after').on('conversations').column('delete_after').execute();
      },
    },
    // A telephony call found by its id (issue 33: a Twilio CallSid): the jobs made for it and the streams that
    // carried it, each indexed by the call's id.
    '0012_call_sid': {
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable('jobs').addColumn('call_sid', 'text').execute();
        await db.schema.createIndex('jobs_call_sid').on('jobs').columns(['call_sid', 'created_at']).execute();
        await db.schema.alterTable('stream_messages').addColumn('call_sid', 'text').execute();
        await db.schema.createIndex('stream_messages_call_sid').on('stream_messages').column('call_sid').execute();
      },
    },
    // A real-call message keeps the policy it was redacted under (kinds, project: never a value), so that a later
    // message and the joined post-call record redact under the conversation's policy (issue 36).
    '0013_live_messages_redaction': {
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable('live_messages').addColumn('redaction', 'text').execute();
      },
    },
    // A job whose redaction failed keeps the record of what it did before it gave up (the re-recognition check's
    // rounds and widened stretches: kinds and times, never a value), for the operator; null otherwise.
    '0014_jobs_redaction_failure': {
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable('jobs').addColumn('redaction_failure', 'text').execute();
      },
    },
    // Full-text search over redacted transcripts (issue 35): one entry per job or post-call record whose text
    // finished redaction. SQLite: FTS5 over the entries (external content, kept in step by triggers); PostgreSQL:
    // a generated tsvector with a GIN index. Deleting a job or a record deletes its entry, by trigger, whatever
    // deletes it (the API, retention).
    '0015_search': {
      async up(db: Kysely<unknown>) {
        if (dialect === 'postgres') {
          await sql`create table search_entries (
            kind text not null, ref_id text not null, sid text, agent_id text, campaign text,
            created_at text not null, body text not null,
            tsv tsvector generated always as (to_tsvector('simple', body)) stored,
            primary key (kind, ref_id))`.execute(db);
          await sql`create index search_entries_tsv on search_entries using gin (tsv)`.execute(db);
          await sql`create function search_forget_job() returns trigger language plpgsql as $$
            begin delete from search_entries where kind = 'job' and ref_id = old.id; return old; end $$`.execute(db);
          await sql`create trigger jobs_search_forget after delete on jobs for each row execute function search_forget_job()`.execute(db);
          await sql`create function search_forget_record() returns trigger language plpgsql as $$
            begin delete from search_entries where kind = 'record' and ref_id = old.event_id; return old; end $$`.execute(db);
          await sql`create trigger conversations_search_forget after delete on conversations for each row execute function search_forget_record()`.execute(db);
        } else {
          await sql`create table search_entries (
            rowid integer primary key, kind text not null, ref_id text not null, sid text, agent_id text, campaign text,
            created_at text not null, body text not null)`.execute(db);
          await sql`create unique index search_entries_ref on search_entries (kind, ref_id)`.execute(db);
          await sql`create virtual table search_fts using fts5(body, content='search_entries', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2')`.execute(db);
          await sql`create trigger search_entries_ai after insert on search_entries begin
            insert into search_fts(rowid, body) values (new.rowid, new.body); end`.execute(db);
          await sql`create trigger search_entries_ad after delete on search_entries begin
            insert into search_fts(search_fts, rowid, body) values ('delete', old.rowid, old.body); end`.execute(db);
          await sql`create trigger jobs_search_forget after delete on jobs begin
            delete from search_entries where kind = 'job' and ref_id = old.id; end`.execute(db);
          await sql`create trigger conversations_search_forget after delete on conversations begin
            delete from search_entries where kind = 'record' and ref_id = old.event_id; end`.execute(db);
        }
        await db.schema.createIndex('search_entries_created').on('search_entries').column('created_at').execute();
      },
    },
    // Categories over time (issue 35): one row per insight run on a processed post-call record or a completed job
    // that asked for analysis (its id, whether it matched or was a compliance violation), with the call's project,
    // agent, campaign and time, so counts over many calls are one grouped query. Never any text. Deleting a record
    // or a job deletes its rows, by trigger.
    '0016_insight_hits': {
      async up(db: Kysely<unknown>) {
        await sql`create table insight_hits (
          kind text not null, ref_id text not null, insight_id text not null, type text not null, lines integer not null,
          sid text, agent_id text, campaign text, created_at text not null)`.execute(db);
        await db.schema.createIndex('insight_hits_ref').on('insight_hits').columns(['kind', 'ref_id']).execute();
        await db.schema.createIndex('insight_hits_created').on('insight_hits').column('created_at').execute();
        await forgetWithTheCall(db, dialect, 'insight_hits');
      },
    },
    // Call figures for filters and dashboards (issue 35): one row per analysed call (a processed post-call record,
    // a completed job that asked for analysis) — its sentiment (the call's, the agent's, the caller's: negative /
    // neutral / positive, or null when not measured) and talk time per side, with its project, agent, campaign and
    // time. Never text. Deleting a record or a job deletes its row, by trigger. And the calls stored before this
    // migration (and before 0015 / 0016), queued once for the start-up backfill (store/backfill.ts) that indexes
    // their redacted text, counts their insights and keeps their figures; each leaves the queue once done.
    '0017_call_figures': {
      async up(db: Kysely<unknown>) {
        await sql`create table call_figures (
          kind text not null, ref_id text not null, sid text, agent_id text, campaign text, created_at text not null,
          sentiment text, sentiment_agent text, sentiment_caller text, talk_time_agent real, talk_time_caller real,
          primary key (kind, ref_id))`.execute(db);
        await db.schema.createIndex('call_figures_created').on('call_figures').column('created_at').execute();
        await forgetWithTheCall(db, dialect, 'call_figures');
        await sql`create table backfill_queue (kind text not null, ref_id text not null, primary key (kind, ref_id))`.execute(db);
        await sql`insert into backfill_queue (kind, ref_id) select 'job', id from jobs where status = 'completed'`.execute(db);
        await sql`insert into backfill_queue (kind, ref_id) select 'record', event_id from conversations`.execute(db);
      },
    },
  };
}

/**
 * Triggers that delete a per-call table's rows (`kind` 'record' / 'job', `ref_id`) when their post-call record or
 * job is deleted: `<table>_forget_record` / `_forget_job` (functions on PostgreSQL) and
 * `conversations_<table>_forget` / `jobs_<table>_forget`. The SQL is the same that 0016 and 0017 ran when first written.
 */
async function forgetWithTheCall(db: Kysely<unknown>, dialect: Dialect, table: 'insight_hits' | 'call_figures'): Promise<void> {
  const callers = [
    { kind: 'record', on: 'conversations', key: 'event_id' },
    { kind: 'job', on: 'jobs', key: 'id' },
  ] as const;
  for (const { kind, on, key } of callers) {
    const rows = sql.raw(`delete from ${table} where kind = '${kind}' and ref_id = old.${key};`);
    const trigger = sql.raw(`${on}_${table}_forget`);
    if (dialect === 'postgres') {
      const fn = sql.raw(`${table}_forget_${kind}`);
      await sql`create function ${fn}() returns trigger language plpgsql as $$ begin ${rows} return old; end $$`.execute(db);
      await sql`create trigger ${trigger} after delete on ${sql.raw(on)} for each row execute function ${fn}()`.execute(db);
    } else {
      await sql`create trigger ${trigger} after delete on ${sql.raw(on)} begin ${rows} end`.execute(db);
    }
  }
}

/**
 * SQLite adds a foreign key only by rebuilding the table: the same definition (read from sqlite_master, so
 * columns added by other migrations are kept) plus the constraint, the rows copied, the indexes made again.
 */
async function addSqliteJobForeignKey(db: Kysely<unknown>, table: string): Promise<void> {
  const { rows } = await sql<{ type: string; sql: string }>`select type, sql from sqlite_master where tbl_name = ${table} and sql is not null`.execute(db);
  const create = rows.find((r) => r.type === 'table')?.sql;
  if (!create) throw new Error(`migration: table ${table} not found`);
  const rebuilt = `${table}_rebuilt`;
  const definition = create
    .replace(/^CREATE TABLE\s+("?)\w+\1/i, `CREATE TABLE "${rebuilt}"`)
    .replace(/\)\s*$/, `, constraint "${table}_job_fk" foreign key ("job_id") references "jobs" ("id") on delete cascade)`);
  await sql.raw(definition).execute(db);
  await sql.raw(`insert into "${rebuilt}" select * from "${table}"`).execute(db);
  await sql.raw(`drop table "${table}"`).execute(db);
  await sql.raw(`alter table "${rebuilt}" rename to "${table}"`).execute(db);
  for (const index of rows.filter((r) => r.type === 'index')) await sql.raw(index.sql).execute(db);
}

export function migrationProvider(dialect: Dialect): MigrationProvider {
  return { getMigrations: async () => migrations(dialect) };
}
