// The store: the database and a repository per table.
import { ApiKeyStore } from './apiKeys.js';
import { CacheEntryStore } from './cacheEntries.js';
import { ConversationStore } from './conversations.js';
import { DeliveryStore } from './deliveries.js';
import type { Kysely } from 'kysely';
import { type Database, type DatabaseOptions, openDatabase } from './database.js';
import type { Dialect } from './dialect.js';
import { EventStore } from './events.js';
import { JobStore } from './jobs.js';
import { LiveMessageStore } from './liveMessages.js';
import { LiveStreamStore } from './liveStreams.js';
import { ParameterStore } from './parameters.js';
import { ProjectVersionStore } from './projectVersions.js';
import { SearchStore } from './searchEntries.js';
import { InsightHitStore } from './insightHits.js';
import { CallFigureStore } from './callFigures.js';
import { BackfillQueueStore } from './backfillQueue.js';
import { StreamMessageStore } from './streamMessages.js';
import type { Tables } from './tables.js';
import { WorkerProcessStore } from './workerProcesses.js';

/** The repositories, bound to the database or to one transaction. */
export interface Repositories {
  apiKeys: ApiKeyStore;
  parameters: ParameterStore;
  projects: ProjectVersionStore;
  conversations: ConversationStore;
  liveMessages: LiveMessageStore;
  events: EventStore;
  cacheEntries: CacheEntryStore;
  jobs: JobStore;
  deliveries: DeliveryStore;
  streamMessages: StreamMessageStore;
  /** Full-text search over redacted transcripts. */
  search: SearchStore;
  /** Insight results of calls, counted over time (categories across calls). */
  insightHits: InsightHitStore;
  /** Figures of analysed calls (sentiment, talk time), for filters and dashboards. */
  callFigures: CallFigureStore;
}

export interface Store extends Repositories {
  database: Database;
  /** Heartbeats of the processes that run jobs (outside transactions: each beat stands alone). */
  processes: WorkerProcessStore;
  /** Live streams open in the cluster (outside transactions: admission runs its own). */
  streams: LiveStreamStore;
  /** Calls stored before search, insight counts and call figures, owed the start-up backfill (jobs/backfill.ts). */
  backfill: BackfillQueueStore;
  /** Run `work` in one transaction: all of its writes land, or none. */
  transaction<T>(work: (repositories: Repositories) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

function repositories(db: Kysely<Tables>, dialect: Dialect): Repositories {
  return {
    apiKeys: new ApiKeyStore(db),
    parameters: new ParameterStore(db),
    projects: new ProjectVersionStore(db),
    conversations: new ConversationStore(db),
    liveMessages: new LiveMessageStore(db),
    events: new EventStore(db),
    cacheEntries: new CacheEntryStore(db),
    jobs: new JobStore(db),
    deliveries: new DeliveryStore(db),
    streamMessages: new StreamMessageStore(db),
    search: new SearchStore(db, dialect),
    insightHits: new InsightHitStore(db, dialect),
    callFigures: new CallFigureStore(db),
  };
}

export async function openStore(options: DatabaseOptions): Promise<Store> {
  const database = await openDatabase(options);
  const db = database.db;
  return {
    database,
    ...repositories(db, database.dialect),
    processes: new WorkerProcessStore(db, database.dialect),
    streams: new LiveStreamStore(db, database.dialect),
    backfill: new BackfillQueueStore(db),
    transaction: (work) => db.transaction().execute((trx) => work(repositories(trx, database.dialect))),
    close: () => database.close(),
  };
}
