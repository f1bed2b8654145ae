// The store: the database and a repository per table.
import { ApiKeyStore } from './apiKeys.js';
import { CacheEntryStore } from './cacheEntries.js';
import { ConversationStore } from './conversations.js';
import { type Database, type DatabaseOptions, openDatabase } from './database.js';
import { EventStore } from './events.js';
import { LiveMessageStore } from './liveMessages.js';
import { ParameterStore } from './parameters.js';
import { ProjectVersionStore } from './projectVersions.js';

export interface Store {
  database: Database;
  apiKeys: ApiKeyStore;
  parameters: ParameterStore;
  projects: ProjectVersionStore;
  conversations: ConversationStore;
  liveMessages: LiveMessageStore;
  events: EventStore;
  cacheEntries: CacheEntryStore;
  close(): Promise<void>;
}

export async function openStore(options: DatabaseOptions): Promise<Store> {
  const database = await openDatabase(options);
  const db = database.db;
  return {
    database,
    apiKeys: new ApiKeyStore(db),
    parameters: new ParameterStore(db),
    projects: new ProjectVersionStore(db),
    conversations: new ConversationStore(db),
    liveMessages: new LiveMessageStore(db),
    events: new EventStore(db),
    cacheEntries: new CacheEntryStore(db),
    close: () => database.close(),
  };
}
