// Starting and stopping the HTTP service: listen (loopback only while no API key exists), and on SIGINT or
// SIGTERM stop taking requests, finish those in flight, then close the store.
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from './api/app.js';
import { isLoopback } from './api/auth.js';
import type { Config } from './config.js';
import { createServices, type Services } from './services.js';
import { closeRedactionPool } from './workers/index.js';
import { buildTelephonyInBackground } from './engine/adaptation/buildAtStart.js';
import { checkAddedModelsInBackground } from './engine/sherpa/checkAtStart.js';

export interface RunningServer {
  app: FastifyInstance;
  services: Services;
  address: string;
  stop(): Promise<void>;
}

function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || isLoopback(host);
}

export async function startServer(config: Config, logger: Logger): Promise<RunningServer> {
  const services = await createServices(config, logger);
  const app = await buildApp(services, { logger });
  let host = config.host;
  if (!isLoopbackHost(host) && (await services.store.apiKeys.countActive()) === 0) {
    logger.warn(
      { requestedHost: host },
      'no API key exists: listening on 127.0.0.1 only. Create a key with `scrubline keys create --scope admin` to listen on other addresses.',
    );
    host = '127.0.0.1';
  }
  let address: string;
  try {
    address = await app.listen({ port: config.port, host });
  } catch (error) {
    await app.close();
    await services.close();
    throw error;
  }
  if (config.workers > 0) {
    if (process.env.SCRUBLINE_BUILD_MODELS_AT_START !== '0') {
      buildTelephonyInBackground(logger);
      checkAddedModelsInBackground(logger);
    }
    await services.worker.start();
    await services.heartbeat.start('serve');
    services.outbox.start();
    services.retention.start();
    // Calls stored before search and insight counts: indexed and counted in the background, a few at a time.
    services.backfill.start();
    // Live conversations idle for their time end and are processed as post-call records (issue 18).
    services.conversations.startIdleSweep(config.liveIdleSeconds);
  }
  logger.info({ host, port: config.port, workers: config.workers, address, store: services.store.database.dialect, cacheBus: services.bus.kind }, 'scrubline listening');
  let stopping: Promise<void> | undefined;
  return {
    app,
    services,
    address,
    stop() {
      stopping ??= (async () => {
        // Requests in flight finish, but none waits on a redaction task past its grace, and none starts one: a
        // request that needs a worker now is answered 503 (send again), a job's run is left to its lease.
        const redaction = closeRedactionPool({ refuseNew: true });
        await app.close();
        await redaction;
        await services.close();
      })();
      return stopping;
    },
  };
}

/** Stop cleanly on the first signal; a second one forces the exit. */
export function stopOnSignals(server: RunningServer, logger: Logger): void {
  let received = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (received) process.exit(1);
    received = true;
    logger.info({ signal }, 'shutting down: finishing requests in flight');
    const force = setTimeout(() => {
      logger.error('shutdown took longer than 10 s; exiting');
      process.exit(1);
    }, 10_000);
    force.unref();
    server.stop().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
