// The server side of bench/post-call.ts, run in a child process of its own (node --import tsx) so that the
// load generator does not share an event loop with it. BENCH_TARGET picks what listens on 127.0.0.1:<random>:
//   service   the real service, started as `scrubline serve` starts it (loadConfig + startServer), on the
//             store named by SCRUBLINE_DATA_DIR / DATABASE_URL / SCRUBLINE_DB_SCHEMA; logs at BENCH_LOG (pino, output discarded)
//   baseline  a bare Fastify app (same Fastify version, default JSON parser and body limit, no logger) with
//             POST /system/cache/post-call answering a small JSON, and POST /echo answering the parsed body
// It talks to the parent over IPC: 'ready' once listening; then answers 'reset' (start a new RSS peak),
// 'sample' (RSS peak since the last reset, sampled every 100 ms) and 'count' (records stored), and exits on
// 'stop' after closing the server.
import Fastify, { type FastifyInstance } from 'fastify';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/observability/logger.js';
import { startServer, type RunningServer } from '../src/server.js';

export type ParentMessage = { type: 'reset' } | { type: 'sample' } | { type: 'count' } | { type: 'stop' };
export type ChildMessage =
  | { type: 'ready'; address: string; target: string; logLevel: string }
  | { type: 'sample'; peakRss: number; rss: number; maxRssLifetime: number; samples: number }
  | { type: 'count'; stored: number | null }
  | { type: 'error'; message: string };

const target = process.env.BENCH_TARGET;
const logLevel = process.env.BENCH_LOG || 'info';

function send(message: ChildMessage): void {
  process.send?.(message);
}

let peakRss = 0;
let samples = 0;
const sampler = setInterval(() => {
  const rss = process.memoryUsage.rss();
  if (rss > peakRss) peakRss = rss;
  samples++;
}, 100);
sampler.unref();

async function startBaseline(): Promise<{ address: string; close: () => Promise<void> }> {
  const app: FastifyInstance = Fastify({ logger: false });
  app.post('/system/cache/post-call', async (request, reply) => {
    const body = request.body as { eventId?: string };
    reply.code(201);
    return { eventId: body.eventId, status: 'received' };
  });
  app.post('/echo', async (request, reply) => {
    reply.code(201);
    return request.body;
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return { address, close: () => app.close() };
}

async function main(): Promise<void> {
  let close: () => Promise<void>;
  let address: string;
  let server: RunningServer | undefined;
  if (target === 'service') {
    const config = loadConfig({
      SCRUBLINE_DATA_DIR: process.env.SCRUBLINE_DATA_DIR,
      DATABASE_URL: process.env.DATABASE_URL,
      SCRUBLINE_DB_SCHEMA: process.env.SCRUBLINE_DB_SCHEMA,
      SCRUBLINE_SECRET_KEY: 'bench-secret-key',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: logLevel,
    });
    // The production logger (redaction included) at the chosen level, writing to nowhere: the cost of
    // building log lines is measured, the cost of writing them out is not.
    const logger = createLogger(logLevel === 'off' ? 'silent' : logLevel, { write: () => {} });
    server = await startServer(config, logger);
    address = server.address;
    close = server.stop;
  } else if (target === 'baseline') {
    ({ address, close } = await startBaseline());
  } else {
    throw new Error(`BENCH_TARGET must be "service" or "baseline", got "${target}"`);
  }
  peakRss = process.memoryUsage.rss();
  let stopping = false;

  process.on('message', (message: ParentMessage) => {
    void (async () => {
      try {
        switch (message.type) {
          case 'reset':
            peakRss = process.memoryUsage.rss();
            samples = 0;
            send({ type: 'sample', peakRss, rss: peakRss, maxRssLifetime: process.resourceUsage().maxRSS * 1024, samples });
            break;
          case 'sample': {
            const rss = process.memoryUsage.rss();
            if (rss > peakRss) peakRss = rss;
            send({ type: 'sample', peakRss, rss, maxRssLifetime: process.resourceUsage().maxRSS * 1024, samples });
            break;
          }
          case 'count':
            send({ type: 'count', stored: server ? await server.services.store.conversations.count() : null });
            break;
          case 'stop':
            stopping = true;
            await close();
            process.disconnect?.();
            process.exit(0);
        }
      } catch (error) {
        send({ type: 'error', message: error instanceof Error ? error.stack ?? error.message : String(error) });
      }
    })();
  });
  process.on('disconnect', () => {
    // The parent went away without asking: do not linger.
    if (stopping) return;
    stopping = true;
    void close().finally(() => process.exit(0));
  });
  send({ type: 'ready', address, target: target!, logLevel: target === 'service' ? logLevel : 'none (logger: false)' });
}

main().catch((error: unknown) => {
  send({ type: 'error', message: error instanceof Error ? error.stack ?? error.message : String(error) });
  process.exit(1);
});
