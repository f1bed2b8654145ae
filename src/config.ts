// Configuration from environment variables, read once at start. Every setting has a safe default so that
// `scrubline serve` with nothing set runs embedded (SQLite in ./data, in-process queue and cache).
import os from 'node:os';
import path from 'node:path';
import { AllowListError, parseAllowList } from './jobs/notifications/targetPolicy.js';
import type { BlobStoreConfig } from './store/blobs/index.js';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /**
   * Where uploads, redacted copies and text inputs are kept (SCRUBLINE_BLOB_STORE): the data directory, or an
   * S3-compatible bucket (SCRUBLINE_S3_*). Holds the bucket's credentials: never logged, never answered.
   */
  blobs: BlobStoreConfig;
  /** PostgreSQL URL; when absent the embedded SQLite database in dataDir is used. */
  databaseUrl?: string;
  /** PostgreSQL schema that holds Scrubline's tables (made when missing). */
  databaseSchema: string;
  /** Redis URL; when set, published configurations invalidate the caches of every process through pub/sub. */
  redisUrl?: string;
  logLevel: string;
  /** Standard Webhooks signing secret (whsec_...); made once in dataDir when absent. */
  webhookSecret?: string;
  /** Notification retry delays in ms (default: 5 s ... 8 h, about a day in all). */
  webhookScheduleMs?: number[];
  /**
   * Notification targets allowed besides public addresses (SCRUBLINE_WEBHOOK_ALLOW): CIDRs or addresses, and
   * host[:port] names (`*.suffix` for a domain), for self-hosted receivers on a private network.
   */
  webhookAllow: string[];
  /** Key material for encrypting credential fields at rest; a key file in dataDir is made when absent. */
  secretKey?: string;
  limits: {
    jsonBodyBytes: number;
    uploadBytes: number;
    audioSeconds: number;
    maxStreams: number;
    /** Live streams the whole cluster accepts (SCRUBLINE_MAX_STREAMS_TOTAL); absent: the sum of the processes' maxStreams. */
    totalStreams?: number;
    /** Requests per API key (or client address) per minute; 0 turns the limit off. */
    requestsPerMinute: number;
  };
  /** Admission and unpacking limits for uploads (src/audio/limiter.ts, src/audio/unzip.ts). */
  uploads: {
    /** Uploads probed/measured at once; more wait in a queue of probeQueue, past that 503 + Retry-After. */
    probeConcurrency: number;
    probeQueue: number;
    /** Zip uploads unpacked at once; past that 503 + Retry-After. */
    unzipConcurrency: number;
    /** Bytes one zip may unpack to in all, and one entry of it (counted on the bytes read). */
    zipMaxBytes: number;
    zipMaxEntryBytes: number;
    zipMaxEntries: number;
  };
  /** How often (ms) the upload temp dir is swept of what requests left there (SCRUBLINE_ORPHAN_SWEEP_MS; 0: at start only). */
  orphanSweepMs: number;
  /** How long (ms) a job whose storage (or a client's bucket) could not be reached waits before it is tried again. */
  storageRetryMs: number;
  /** How many times a job waits for a client's bucket out of reach before it fails (SCRUBLINE_BUCKET_MAX_WAITS). */
  clientBucketMaxWaits: number;
  /**
   * Widenings the re-recognition check of a redacted copy may make before it fails the job (SCRUBLINE_RECHECK_ROUNDS,
   * default 3; at most 10). 0: the first number heard in the copy fails the job.
   */
  recheckRounds: number;
  /** Jobs one worker process runs at once (recognition itself is spread over the cores by the engine pool). */
  workers: number;
  /** How long (ms) a job run's claim holds without renewal (database clock): how soon a dead worker's job is taken over. */
  jobLeaseMs: number;
  /** How long (ms) an API-key lookup is trusted before the store is asked again (revocation latency). */
  authCacheMs: number;
  /** How long (ms) a process trusts its cached project configuration when no invalidation reaches it. */
  configCacheMs: number;
  /** Seconds without a real-call message after which a live conversation ends (projects may set their own). */
  liveIdleSeconds: number;
  /**
   * Host names served besides localhost, HOST and IP addresses (SCRUBLINE_ALLOWED_HOSTS: names, `*.suffix`, `*`):
   * checked while no API key exists, and always once set (src/api/browserGuard.ts).
   */
  allowedHosts: string[];
  /** `scrubline worker`'s metrics endpoint (GET /metrics): port (none: no endpoint; 0: any free one) and address. */
  metrics: { port?: number; host: string };
}

export class ConfigError extends Error {}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new ConfigError(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

function recheckRounds(env: NodeJS.ProcessEnv): number {
  const rounds = integer(env, 'SCRUBLINE_RECHECK_ROUNDS', 3);
  // Each round recognizes the whole copy again: a bound keeps a job that cannot converge from running on.
  if (rounds > 10) throw new ConfigError(`SCRUBLINE_RECHECK_ROUNDS must be at most 10, got "${env.SCRUBLINE_RECHECK_ROUNDS}"`);
  return rounds;
}

function schedule(raw: string | undefined): number[] | undefined {
  if (!raw) return undefined;
  const delays = raw.split(',').map((part) => Number(part.trim()));
  if (delays.some((d) => !Number.isInteger(d) || d < 0)) {
    throw new ConfigError(`SCRUBLINE_WEBHOOK_RETRY_MS must be a comma-separated list of milliseconds, got "${raw}"`);
  }
  return delays;
}

function metricsPort(env: NodeJS.ProcessEnv): number | undefined {
  if (env.SCRUBLINE_METRICS_PORT === undefined || env.SCRUBLINE_METRICS_PORT === '') return undefined;
  const port = integer(env, 'SCRUBLINE_METRICS_PORT', 0);
  if (port > 65535) throw new ConfigError(`SCRUBLINE_METRICS_PORT must be at most 65535, got ${port}`);
  return port;
}

function uploadLimits(env: NodeJS.ProcessEnv): Config['uploads'] {
  const uploadBytes = integer(env, 'SCRUBLINE_MAX_UPLOAD_BYTES', 2 * 1024 * 1024 * 1024);
  const zipMaxBytes = integer(env, 'SCRUBLINE_ZIP_MAX_BYTES', uploadBytes);
  return {
    probeConcurrency: Math.max(1, integer(env, 'SCRUBLINE_PROBE_CONCURRENCY', os.availableParallelism())),
    probeQueue: integer(env, 'SCRUBLINE_PROBE_QUEUE', 64),
    unzipConcurrency: Math.max(1, integer(env, 'SCRUBLINE_UNZIP_CONCURRENCY', 2)),
    zipMaxBytes,
    zipMaxEntryBytes: Math.min(zipMaxBytes, integer(env, 'SCRUBLINE_ZIP_MAX_ENTRY_BYTES', uploadBytes)),
    zipMaxEntries: Math.max(1, integer(env, 'SCRUBLINE_ZIP_MAX_ENTRIES', 500)),
  };
}

function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${env[name]}"`);
}

/** SCRUBLINE_BLOB_STORE=local (default) or s3 with SCRUBLINE_S3_BUCKET, _ENDPOINT, _REGION, _PREFIX, _FORCE_PATH_STYLE, _ACCESS_KEY_ID, _SECRET_ACCESS_KEY. */
function blobStore(env: NodeJS.ProcessEnv): BlobStoreConfig {
  const kind = (env.SCRUBLINE_BLOB_STORE || 'local').toLowerCase();
  if (kind === 'local') return { kind: 'local' };
  if (kind !== 's3') throw new ConfigError(`SCRUBLINE_BLOB_STORE must be local or s3, got "${env.SCRUBLINE_BLOB_STORE}"`);
  const bucket = env.SCRUBLINE_S3_BUCKET;
  if (!bucket) throw new ConfigError('SCRUBLINE_BLOB_STORE=s3 needs SCRUBLINE_S3_BUCKET');
  const endpoint = env.SCRUBLINE_S3_ENDPOINT || undefined;
  if (endpoint && !/^https?:\/\/[^\s]+$/.test(endpoint)) throw new ConfigError('SCRUBLINE_S3_ENDPOINT must be an http(s) URL');
  let prefix = (env.SCRUBLINE_S3_PREFIX ?? '').replace(/^\/+/, '');
  if (prefix && !prefix.endsWith('/')) prefix += '/';
  const accessKeyId = env.SCRUBLINE_S3_ACCESS_KEY_ID;
  const secretAccessKey = env.SCRUBLINE_S3_SECRET_ACCESS_KEY;
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) throw new ConfigError('SCRUBLINE_S3_ACCESS_KEY_ID and SCRUBLINE_S3_SECRET_ACCESS_KEY go together');
  return {
    kind: 's3',
    location: {
      bucket,
      endpoint,
      region: env.SCRUBLINE_S3_REGION || env.AWS_REGION || 'us-east-1',
      prefix,
      // Self-hosted servers (MinIO, Ceph) want the bucket in the path; AWS takes either.
      forcePathStyle: flag(env, 'SCRUBLINE_S3_FORCE_PATH_STYLE', Boolean(endpoint)),
      ...(accessKeyId && secretAccessKey && { credentials: { accessKeyId, secretAccessKey } }),
    },
  };
}

function allowList(raw: string | undefined): string[] {
  try {
    return parseAllowList(raw);
  } catch (error) {
    if (error instanceof AllowListError) throw new ConfigError(error.message);
    throw error;
  }
}

/** SCRUBLINE_ALLOWED_HOSTS: comma-separated host names (no port: the port is not checked), `*.suffix` or `*`. */
function allowedHosts(raw: string | undefined): string[] {
  if (!raw || raw.trim() === '') return [];
  return raw.split(',').map((part) => {
    const name = part.trim().toLowerCase().replace(/\.$/, '');
    if (name === '*' || /^(\*\.)?[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$/.test(name)) return name;
    throw new ConfigError(`SCRUBLINE_ALLOWED_HOSTS must list host names (no port), *.suffix or *, got "${part.trim()}"`);
  });
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = integer(env, 'PORT', 8080);
  const schema = env.SCRUBLINE_DB_SCHEMA;
  if (schema && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new ConfigError(`SCRUBLINE_DB_SCHEMA must be a lower-case SQL identifier, got "${schema}"`);
  }
  if (port > 65535) throw new ConfigError(`PORT must be at most 65535, got ${port}`);
  return {
    port,
    host: env.HOST || '127.0.0.1',
    dataDir: path.resolve(env.SCRUBLINE_DATA_DIR || 'data'),
    blobs: blobStore(env),
    databaseUrl: env.DATABASE_URL || undefined,
    databaseSchema: env.SCRUBLINE_DB_SCHEMA || 'public',
    redisUrl: env.REDIS_URL || undefined,
    logLevel: env.LOG_LEVEL || 'info',
    secretKey: env.SCRUBLINE_SECRET_KEY || undefined,
    webhookSecret: env.SCRUBLINE_WEBHOOK_SECRET || undefined,
    webhookScheduleMs: schedule(env.SCRUBLINE_WEBHOOK_RETRY_MS),
    webhookAllow: allowList(env.SCRUBLINE_WEBHOOK_ALLOW),
    limits: {
      jsonBodyBytes: integer(env, 'SCRUBLINE_MAX_JSON_BYTES', 32 * 1024 * 1024),
      uploadBytes: integer(env, 'SCRUBLINE_MAX_UPLOAD_BYTES', 2 * 1024 * 1024 * 1024),
      audioSeconds: integer(env, 'SCRUBLINE_MAX_AUDIO_SECONDS', 4 * 3600),
      // One per core, from bench/stream.ts (docs/streams.md "Measured capacity"): a stream with batch-quality finals
      // costs about a core, so more would leave finals behind real time.
      maxStreams: integer(env, 'SCRUBLINE_MAX_STREAMS', Math.max(1, os.availableParallelism())),
      ...(env.SCRUBLINE_MAX_STREAMS_TOTAL && { totalStreams: integer(env, 'SCRUBLINE_MAX_STREAMS_TOTAL', 0) }),
      requestsPerMinute: integer(env, 'SCRUBLINE_RATE_LIMIT_PER_MINUTE', 12_000),
    },
    uploads: uploadLimits(env),
    orphanSweepMs: integer(env, 'SCRUBLINE_ORPHAN_SWEEP_MS', 5 * 60_000),
    storageRetryMs: Math.max(100, integer(env, 'SCRUBLINE_STORAGE_RETRY_MS', 30_000)),
    clientBucketMaxWaits: Math.max(0, integer(env, 'SCRUBLINE_BUCKET_MAX_WAITS', 20)),
    recheckRounds: recheckRounds(env),
    workers: integer(env, 'SCRUBLINE_WORKERS', Math.max(1, os.availableParallelism())),
    jobLeaseMs: Math.max(1000, integer(env, 'SCRUBLINE_JOB_LEASE_MS', 30_000)),
    authCacheMs: integer(env, 'SCRUBLINE_AUTH_CACHE_MS', 2000),
    // With Redis, publishes invalidate every process at once, so the cache may be trusted longer.
    configCacheMs: integer(env, 'SCRUBLINE_CONFIG_CACHE_MS', env.REDIS_URL ? 60_000 : 5000),
    liveIdleSeconds: integer(env, 'SCRUBLINE_LIVE_IDLE_SECONDS', 300),
    allowedHosts: allowedHosts(env.SCRUBLINE_ALLOWED_HOSTS),
    metrics: { port: metricsPort(env), host: env.SCRUBLINE_METRICS_HOST || '127.0.0.1' },
  };
}
