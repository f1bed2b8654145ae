// The service's parts, wired once from configuration and shared by the HTTP API, the CLI and workers.
import type { Logger } from 'pino';
import { type InvalidationBus, localBus, redisBus } from './cache/invalidationBus.js';
import { Conversations } from './cache/conversations.js';
import { Parameters } from './cache/parameters.js';
import { ProjectConfigs } from './cache/projectConfigs.js';
import type { Config } from './config.js';
import { Metrics } from './observability/metrics.js';
import { loadSecretBox, type SecretBox } from './security/secretBox.js';
import { openStore, type Store } from './store/index.js';

export interface Services {
  config: Config;
  store: Store;
  box: SecretBox;
  bus: InvalidationBus;
  projects: ProjectConfigs;
  parameters: Parameters;
  conversations: Conversations;
  metrics: Metrics;
  startedAt: Date;
  close(): Promise<void>;
}

export async function createServices(config: Config, logger: Logger): Promise<Services> {
  const store = await openStore({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, databaseSchema: config.databaseSchema });
  const box = loadSecretBox(config.dataDir, config.secretKey);
  let bus: InvalidationBus;
  try {
    bus = config.redisUrl
      ? await redisBus(config.redisUrl, (error) => logger.warn({ err: error.message }, 'redis connection problem'))
      : localBus();
  } catch (error) {
    await store.close();
    throw error;
  }
  const projects = new ProjectConfigs(store, bus, config.configCacheMs);
  const parameters = new Parameters(store, projects, box, config.dataDir);
  const conversations = new Conversations(store, box);
  return {
    config,
    store,
    box,
    bus,
    projects,
    parameters,
    conversations,
    metrics: new Metrics(),
    startedAt: new Date(),
    async close() {
      await bus.close();
      await store.close();
    },
  };
}
