// The `scrubline` command line: serve the API, run workers, transcribe files, manage API keys and models.
import os from 'node:os';
import { Command, InvalidArgumentError } from 'commander';
import { ConfigError, loadConfig } from '../config.js';
import { isScope, SCOPES, type Scope } from '../store/apiKeys.js';
import { openStore } from '../store/index.js';
import { VERSION } from '../version.js';

function parseScope(value: string): Scope {
  if (!isScope(value)) throw new InvalidArgumentError(`scope must be one of ${SCOPES.join(', ')}`);
  return value;
}

async function withStore<T>(run: (store: Awaited<ReturnType<typeof openStore>>) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const store = await openStore({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, databaseSchema: config.databaseSchema });
  try {
    return await run(store);
  } finally {
    await store.close();
  }
}

export function buildCli(): Command {
  const program = new Command('scrubline')
    .description('Speech recognition and redaction for contact-center conversations')
    .version(VERSION);

  program
    .command('serve')
    .description('Start the HTTP API (configured by environment variables: PORT, HOST, SCRUBLINE_DATA_DIR, DATABASE_URL, REDIS_URL, LOG_LEVEL)')
    .option('-p, --port <port>', 'port to listen on (overrides PORT)')
    .option('--host <host>', 'address to listen on (overrides HOST)')
    .action(async (options: { port?: string; host?: string }) => {
      const config = loadConfig({ ...process.env, ...(options.port && { PORT: options.port }), ...(options.host && { HOST: options.host }) });
      // Loaded here so that key management does not pay for loading the HTTP stack.
      const { createLogger } = await import('../observability/logger.js');
      const { startServer, stopOnSignals } = await import('../server.js');
      const { installLastResortHandlers } = await import('../observability/lastResort.js');
      const logger = createLogger(config.logLevel);
      installLastResortHandlers(logger);
      const server = await startServer(config, logger);
      stopOnSignals(server, logger);
    });

  program
    .command('worker')
    .description('Run job workers only, without the HTTP API (scale out: any number of them against one DATABASE_URL)')
    .option('--metrics-port <port>', 'serve this process\'s metrics at GET /metrics on this port (overrides SCRUBLINE_METRICS_PORT; 0: any free port)')
    .option('--metrics-host <host>', 'address of the metrics endpoint (overrides SCRUBLINE_METRICS_HOST; default 127.0.0.1)')
    .action(async (options: { metricsPort?: string; metricsHost?: string }) => {
      const config = loadConfig({
        ...process.env,
        ...(options.metricsPort !== undefined && { SCRUBLINE_METRICS_PORT: options.metricsPort }),
        ...(options.metricsHost && { SCRUBLINE_METRICS_HOST: options.metricsHost }),
      });
      const { createLogger } = await import('../observability/logger.js');
      const { createServices } = await import('../services.js');
      const { closeRedactionPool } = await import('../workers/index.js');
      const { installLastResortHandlers } = await import('../observability/lastResort.js');
      const logger = createLogger(config.logLevel);
      installLastResortHandlers(logger);
      const services = await createServices(config, logger);
      if (process.env.SCRUBLINE_BUILD_MODELS_AT_START !== '0') {
        const { checkAddedModelsInBackground } = await import('../engine/sherpa/checkAtStart.js');
        checkAddedModelsInBackground(logger);
      }
      // Without it a scaled-out worker's job counters are seen nowhere: the API process counts only its own.
      let metricsServer: import('../observability/metricsServer.js').MetricsServer | undefined;
      if (config.metrics.port !== undefined) {
        const { startMetricsServer } = await import('../observability/metricsServer.js');
        metricsServer = await startMetricsServer(services.metrics, { port: config.metrics.port, host: config.metrics.host });
      }
      await services.worker.start();
      await services.heartbeat.start('worker');
      services.outbox.start();
      services.retention.start();
      // Calls stored before search and insight counts: indexed and counted in the background, a few at a time.
      services.backfill.start();
      logger.info(
        { worker: services.worker.id, concurrency: config.workers, ...(metricsServer && { metrics: `${metricsServer.url}/metrics` }) },
        'scrubline worker running',
      );
      const stop = async (signal: string) => {
        logger.info({ signal }, 'worker stopping: finishing jobs in hand');
        // No job waits on a redaction task past its grace, nor starts one: a cut run is left to its lease.
        const redaction = closeRedactionPool({ refuseNew: true });
        await metricsServer?.close();
        await services.close();
        await redaction;
        process.exit(0);
      };
      process.once('SIGINT', () => void stop('SIGINT'));
      process.once('SIGTERM', () => void stop('SIGTERM'));
    });

  program
    .command('transcribe')
    .description('Transcribe recordings on this machine (no server needed)')
    .argument('<inputs...>', 'audio files or folders (searched for audio files)')
    .option('-o, --out <dir>', 'where transcripts are written', 'transcripts')
    .option('-f, --format <formats>', 'comma-separated: vendorA, vendorB, transcript, utterances, text, srt, vtt', 'vendorA,text')
    .option('-m, --model <model>', 'model as language:name (default: the default model)')
    .option('--no-numtrans', 'keep spoken numbers as words in formatted text')
    .option('--no-punctuate', 'no sentence-final punctuation (the server punctuates by default)')
    .option('--scrubtext', 'redact every entity kind in the transcripts (as scrubtext=true)')
    .option('--types <kinds>', 'redact these entity kinds, comma-separated (e.g. CreditCardNumber,USSocialSecurityNumber; all for every kind)')
    .option('--scrubaudio', 'refused: redacted audio is made by the server (POST /asr/transcribe with scrubaudio)')
    .option('-j, --concurrency <n>', 'recordings at once', String(Math.max(1, Math.floor(os.availableParallelism() / 2))))
    .action(async (inputs: string[], options: { out: string; format: string; model?: string; numtrans: boolean; punctuate: boolean; scrubtext?: boolean; types?: string; scrubaudio?: boolean; concurrency: string }) => {
      const { transcribeCommand } = await import('./transcribe.js');
      process.exitCode = await transcribeCommand(inputs, { ...options, concurrency: Number(options.concurrency) || 1 });
      // The decoder pool's threads would keep the process alive.
      process.exit();
    });

  const models = program.command('models').description('Manage speech models (sherpa-onnx models you download or bring)');
  models
    .command('list')
    .description('List the models the service knows, installed or not (with the reason)')
    .option('--catalogue', 'list the well-known models `models pull` can download instead')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean; catalogue?: boolean }) => {
      const { listCommand } = await import('./models.js');
      process.exitCode = listCommand(options);
    });
  models
    .command('add')
    .description('Check a sherpa-onnx model folder (files, then a real load in a separate process) and register it')
    .argument('<dir>', 'the model folder (as sherpa-onnx publishes it: tokens.txt and the .onnx files)')
    .option('-n, --name <language:name>', 'the name jobs use (default: en-us:<folder name>)')
    .option('--in-place', 'register the folder where it is instead of copying it into the models directory')
    .option('--json', 'print JSON')
    .action(async (dir: string, options: { name?: string; inPlace?: boolean; json?: boolean }) => {
      const { addCommand } = await import('./models.js');
      process.exitCode = await addCommand(dir, options);
    });
  models
    .command('remove')
    .description('Unregister an added model (copied files are deleted)')
    .argument('<name>', 'language:name')
    .option('--json', 'print JSON')
    .action(async (name: string, options: { json?: boolean }) => {
      const { removeCommand } = await import('./models.js');
      process.exitCode = removeCommand(name, options);
    });
  models
    .command('pull')
    .description('Download a catalogue model (or an archive URL), verify its checksum, unpack and register it')
    .argument('<name|url>', 'a catalogue name (scrubline models list --catalogue) or an http(s) URL of a .tar.bz2')
    .option('-n, --name <language:name>', 'the name to register it as')
    .option('--mirror <url>', 'fetch from this mirror (a folder of the upstream archives) instead; also SCRUBLINE_MODEL_MIRROR')
    .option('--sha256 <hex>', 'the archive checksum to verify (for URLs and unpinned entries)')
    .option('--accept-unpinned', 'accept an archive with no known checksum, recording its digest')
    .option('--timeout <seconds>', 'give up when no data arrives for this long', '30')
    .option('--json', 'print JSON')
    .action(async (what: string, options: import('./models.js').PullCommandOptions) => {
      const { pullCommand } = await import('./models.js');
      process.exitCode = await pullCommand(what, options);
    });

  const keys = program.command('keys').description('Manage API keys');
  keys
    .command('create')
    .description('Create an API key; the key is printed once and only its hash is stored')
    .requiredOption('-s, --scope <scope>', `one of ${SCOPES.join(', ')}`, parseScope)
    .option('-n, --name <name>', 'a name to recognise the key by', 'unnamed')
    .option('--json', 'print JSON')
    .action(async (options: { scope: Scope; name: string; json?: boolean }) => {
      const created = await withStore((store) => store.apiKeys.create(options.name, options.scope));
      if (options.json) console.log(JSON.stringify(created));
      else {
        console.log(`Created key ${created.id} (${created.scope}, "${created.name}"). Store it now; it is not shown again:`);
        console.log(created.key);
      }
    });
  keys
    .command('list')
    .description('List API keys (never the keys themselves)')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const list = await withStore((store) => store.apiKeys.list());
      if (options.json) console.log(JSON.stringify(list));
      else if (list.length === 0) console.log('No API keys. The service serves loopback clients only until one exists.');
      else
        for (const key of list) {
          const state = key.revokedAt ? `revoked ${key.revokedAt}` : 'active';
          console.log(`${key.id}  ${key.prefix}…  ${key.scope.padEnd(6)}  ${state.padEnd(8)}  ${key.name}`);
        }
    });
  keys
    .command('revoke')
    .description('Revoke an API key by its id or its visible prefix')
    .argument('<id>', 'key id or prefix')
    .action(async (id: string) => {
      const revoked = await withStore((store) => store.apiKeys.revoke(id));
      if (!revoked) {
        console.error(`No active key with id or prefix "${id}".`);
        process.exitCode = 1;
      } else console.log(`Revoked ${id}.`);
    });
  return program;
}

export async function main(argv: string[]): Promise<void> {
  try {
    await buildCli().parseAsync(argv);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(2);
    }
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
