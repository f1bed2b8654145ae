// Pulls a model archive over http(s) and unpacks it: the one place the service touches the network for
// models, so every way it can fail ends in a typed PullError (never a hang, never a half-written model).
//   download: streamed to a hidden temp file in destDir, sha256 computed on the fly, redirects followed
//     (GitHub release assets answer 302 to a storage host), an idle timer so a stalled mirror cannot hang us;
//   verify: against the pinned sha256 when there is one; otherwise the digest is returned and recorded
//     (trust on first use: the caller decides whether to accept an unpinned archive);
//   unpack: the system tar into a hidden staging folder, then one rename into place, so a model folder
//     either appears complete or not at all.
// resolvePullSource/mirrorUrl turn `en-us:whisper-tiny` into the URL to fetch, through a local mirror on
// air-gapped sites (--mirror, or SCRUBLINE_MODEL_MIRROR).
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CATALOGUE, type CatalogueEntry } from './catalogue.js';

export type PullErrorCode = 'network' | 'http' | 'timeout' | 'checksum' | 'unpack' | 'exists';

export class PullError extends Error {
  constructor(
    readonly code: PullErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'PullError';
  }
}

export class UnknownModelError extends Error {
  constructor(
    readonly requested: string,
    readonly known: string[],
  ) {
    super(`Unknown model "${requested}". The catalogue has: ${known.join(', ')}. A full http(s) URL to an archive also works.`);
    this.name = 'UnknownModelError';
  }
}

export const MIRROR_ENV = 'SCRUBLINE_MODEL_MIRROR';
/** Written into every pulled model folder: where it came from and the digest it had. */
export const PULL_RECORD_FILE = 'scrubline-pull.json';
export const DEFAULT_IDLE_TIMEOUT_MS = 30_000;
export const MAX_REDIRECTS = 5;

const MIRROR_HINT = `On an air-gapped site, serve the archives from a local HTTP mirror and pass --mirror <base URL> or set ${MIRROR_ENV}.`;

export interface PullOptions {
  url: string;
  /** Folder the model folder is created in (created if missing). */
  destDir: string;
  /** Expected sha256 of the archive (hex); when absent the pull trusts what it gets and reports the digest. */
  sha256?: string;
  /** Name of the model folder; defaults to the archive's single top-level folder, else the archive name. */
  folderName?: string;
  onProgress?: (receivedBytes: number, totalBytes: number | undefined) => void;
  /** Give up when no bytes arrive for this long (connect, headers or body). */
  idleTimeoutMs?: number;
  maxRedirects?: number;
}

export interface PullResult {
  /** The model folder. */
  dir: string;
  /** sha256 of the archive as downloaded. */
  sha256: string;
  bytes: number;
  /** True when the digest was checked against `sha256`; false on trust on first use. */
  verified: boolean;
}

export async function pullArchive(options: PullOptions): Promise<PullResult> {
  const url = parseUrl(options.url);
  const expected = options.sha256?.toLowerCase();
  if (expected !== undefined && !/^[0-9a-f]{64}$/.test(expected)) {
    throw new PullError('checksum', `"${options.sha256}" is not a sha256 digest (64 hex characters).`);
  }
  const archive = archiveName(url);
  const stem = archiveStem(archive);
  const destDir = path.resolve(options.destDir);
  // Checked before downloading hundreds of megabytes; checked again before the final rename.
  refuseExisting(path.join(destDir, options.folderName ?? stem));
  fs.mkdirSync(destDir, { recursive: true });

  const tag = `${randomBytes(6).toString('hex')}`;
  const partFile = path.join(destDir, `.${stem}.${tag}.part`);
  const staging = path.join(destDir, `.${stem}.${tag}.unpack`);
  try {
    const { sha256, bytes } = await fetchToFile(url, partFile, {
      idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
      maxRedirects: options.maxRedirects ?? MAX_REDIRECTS,
      onProgress: options.onProgress,
    });
    if (expected !== undefined && sha256 !== expected) {
      throw new PullError('checksum', `${archive} has sha256 ${sha256}, expected ${expected}; the download was deleted. The file on the server is not the pinned one (a replaced upstream asset, or a mirror serving other bytes).`, { expected, actual: sha256, url: shown(url) });
    }
    fs.mkdirSync(staging);
    await untar(partFile, staging, archive);
    fs.rmSync(partFile, { force: true });

    const { source, name } = modelFolder(staging, options.folderName ?? stem, options.folderName !== undefined);
    rejectLinks(source, source);
    const record = { url: shown(url), archive, sha256, bytes, verified: expected !== undefined, pulledAt: new Date().toISOString() };
    fs.writeFileSync(path.join(source, PULL_RECORD_FILE), `${JSON.stringify(record, null, 2)}\n`);
    const dir = path.join(destDir, name);
    refuseExisting(dir);
    fs.renameSync(source, dir);
    fs.rmSync(staging, { recursive: true, force: true });
    return { dir, sha256, bytes, verified: expected !== undefined };
  } finally {
    // After success both are gone already; after any failure nothing partial stays behind.
    fs.rmSync(partFile, { force: true });
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * A URL as it may be printed or recorded: without the user name and password a mirror URL may carry
 * (`https://user:secret@mirror/`), which would otherwise land in error messages and in the model's manifest.
 */
export function displayUrl(url: string | URL): string {
  try {
    const copy = new URL(String(url));
    copy.username = '';
    copy.password = '';
    return copy.href;
  } catch {
    return String(url).replace(/\/\/[^/@]*@/, '//');
  }
}

const shown = (url: URL) => displayUrl(url);

/** `${mirror}/${archive}`: a mirror is a flat folder of upstream archive files under their own names. */
export function mirrorUrl(entry: Pick<CatalogueEntry, 'archive'>, mirror: string): string {
  return `${mirror.trim().replace(/\/+$/, '')}/${encodeURIComponent(entry.archive)}`;
}

export interface PullSource {
  /** The catalogue entry, when the name (or the URL's archive name) is in the catalogue. */
  entry?: CatalogueEntry;
  url: string;
  /** Pinned digest to verify against, when the catalogue has one. */
  sha256?: string;
  from: 'catalogue' | 'mirror' | 'url';
}

/**
 * What to fetch for a catalogue name or a URL. A name goes to upstream, or to the mirror (the `mirror`
 * option, else $SCRUBLINE_MODEL_MIRROR). A URL is fetched as given; if its file name is a catalogue
 * archive, that entry's pinned digest still applies (a copied archive must be the same bytes).
 */
export function resolvePullSource(
  nameOrUrl: string,
  options: { mirror?: string; env?: NodeJS.ProcessEnv; catalogue?: readonly CatalogueEntry[] } = {},
): PullSource {
  const catalogue = options.catalogue ?? CATALOGUE;
  const requested = nameOrUrl.trim();
  if (/^https?:\/\//i.test(requested)) {
    const file = archiveName(parseUrl(requested));
    const entry = catalogue.find((e) => e.archive === file);
    return { entry, url: requested, sha256: entry?.sha256, from: 'url' };
  }
  const entry = catalogue.find((e) => e.name === requested);
  if (!entry) throw new UnknownModelError(requested, catalogue.map((e) => e.name));
  const mirror = options.mirror?.trim() || options.env?.[MIRROR_ENV]?.trim() || undefined;
  if (mirror) return { entry, url: mirrorUrl(entry, mirror), sha256: entry.sha256, from: 'mirror' };
  return { entry, url: entry.url, sha256: entry.sha256, from: 'catalogue' };
}

function parseUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new PullError('http', `"${text}" is not a URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new PullError('http', `Only http and https URLs can be pulled (got ${url.protocol}). ${MIRROR_HINT}`);
  }
  return url;
}

function archiveName(url: URL): string {
  const last = url.pathname.split('/').filter(Boolean).pop();
  const name = last ? decodeURIComponent(last) : '';
  // The name becomes part of a path: keep it a plain file name.
  if (!name || name === '.' || name === '..' || name.includes('/') || name.includes('\\')) {
    throw new PullError('http', `${shown(url)} does not name an archive file.`);
  }
  return name;
}

function archiveStem(archive: string): string {
  return archive.replace(/\.(tar\.bz2|tar\.gz|tar\.xz|tar\.zst|tbz2|tgz|txz|tar)$/i, '') || archive;
}

function refuseExisting(dir: string): void {
  if (fs.existsSync(dir)) {
    throw new PullError('exists', `${dir} already exists; remove it first to pull the model again (an installed model is never overwritten).`, { dir });
  }
}

interface FetchOptions {
  idleTimeoutMs: number;
  maxRedirects: number;
  onProgress?: (receivedBytes: number, totalBytes: number | undefined) => void;
}

/** Streams the URL (after redirects) into `file`; rejects only once the file is closed, so it can be removed. */
function fetchToFile(start: URL, file: string, options: FetchOptions): Promise<{ sha256: string; bytes: number }> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    let request: http.ClientRequest | undefined;
    let out: fs.WriteStream | undefined;
    let host = start.host;
    let received = 0;

    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request?.destroy();
      if (out && !out.closed) {
        out.once('close', () => reject(error));
        out.destroy();
      } else {
        reject(error);
      }
    };
    // One idle timer for every phase: DNS, connect, headers, each body chunk.
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        fail(new PullError('timeout', `No data from ${host} for ${options.idleTimeoutMs} ms${received > 0 ? ` after ${received} bytes` : ''}; gave up. ${MIRROR_HINT}`, { host, received }));
      }, options.idleTimeoutMs);
    };

    const get = (url: URL, redirectsLeft: number) => {
      host = url.host;
      arm();
      const send = url.protocol === 'https:' ? https.get : http.get;
      request = send(url, { headers: { 'user-agent': 'scrubline-model-pull', 'accept-encoding': 'identity' } }, (res) => {
        if (settled) return void res.destroy();
        arm();
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400 && res.headers.location) {
          drain(res);
          if (redirectsLeft <= 0) return fail(new PullError('http', `Too many redirects (more than ${options.maxRedirects}) fetching ${shown(start)}.`, { url: shown(url) }));
          let next: URL;
          try {
            next = new URL(res.headers.location, url);
          } catch {
            return fail(new PullError('http', `${shown(url)} redirected to an invalid location.`, { url: shown(url) }));
          }
          // A pinned digest would catch tampering, but an unpinned (trust-on-first-use) pull must not be
          // quietly downgraded to plain http.
          if (next.protocol !== 'https:' && (url.protocol === 'https:' || next.protocol !== 'http:')) {
            return fail(new PullError('http', `${shown(url)} redirected to ${next.protocol} (${next.host}); refused.`, { url: shown(url) }));
          }
          return get(next, redirectsLeft - 1);
        }
        if (status < 200 || status >= 300) {
          drain(res);
          return fail(new PullError('http', `HTTP ${status} fetching ${shown(url)}.`, { status, url: shown(url) }));
        }
        const length = Number(res.headers['content-length']);
        const total = res.headers['content-length'] !== undefined && Number.isSafeInteger(length) && length >= 0 ? length : undefined;
        const hash = createHash('sha256');
        const meter = new Transform({
          transform(chunk: Buffer, _encoding, done) {
            arm();
            hash.update(chunk);
            received += chunk.length;
            try {
              options.onProgress?.(received, total);
            } catch (error) {
              return done(error as Error);
            }
            done(null, chunk);
          },
        });
        out = fs.createWriteStream(file, { flags: 'wx' });
        pipeline(res, meter, out).then(
          () => {
            if (total !== undefined && received !== total) {
              return fail(new PullError('network', `The connection to ${host} closed after ${received} of ${total} bytes. ${MIRROR_HINT}`, { host, received, total }));
            }
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            resolve({ sha256: hash.digest('hex'), bytes: received });
          },
          (error: Error) => fail(classify(error, host, received)),
        );
      });
      request.on('error', (error) => fail(classify(error, host, received)));
    };
    get(start, options.maxRedirects);
  });
}

/** Discards a body we do not want; a socket fault while doing so must not become an unhandled error. */
function drain(res: http.IncomingMessage): void {
  res.on('error', () => {});
  res.resume();
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'ECONNRESET', 'ECONNABORTED', 'EHOSTUNREACH', 'EHOSTDOWN',
  'ENETUNREACH', 'ENETDOWN', 'ETIMEDOUT', 'EPIPE', 'EADDRNOTAVAIL', 'ERR_STREAM_PREMATURE_CLOSE',
]);

/** Network faults become PullError('network') with the mirror hint; anything else (a full disk) passes through. */
function classify(error: Error, host: string, received: number): Error {
  if (error instanceof PullError) return error;
  const code = (error as NodeJS.ErrnoException).code ?? '';
  if (NETWORK_CODES.has(code) || error.message === 'aborted') {
    const what = received > 0 ? `The connection to ${host} was lost after ${received} bytes` : `Could not reach ${host}`;
    return new PullError('network', `${what} (${code || error.message}). ${MIRROR_HINT}`, { host, cause: code || error.message });
  }
  if (/CERT|SSL|TLS|SIGNATURE/.test(code)) {
    return new PullError('network', `TLS to ${host} failed (${code}); for a mirror with an in-house CA, set NODE_EXTRA_CA_CERTS. ${MIRROR_HINT}`, { host, cause: code });
  }
  return error;
}

/** The system tar (GNU tar reads .tar.bz2/.gz/.xz by content). It strips leading `/` and refuses `..` members. */
function untar(file: string, into: string, archive: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('tar', ['-x', '-f', file, '-C', into, '--no-same-owner', '--no-same-permissions'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
    child.on('error', (error) => reject(new PullError('unpack', `The system tar could not be run (${error.message}); install tar, bzip2 and xz.`)));
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new PullError('unpack', `tar could not unpack ${archive} (exit ${code}): ${stderr.trim() || 'no message'}`, { exitCode: code }));
    });
  });
}

/** The unpacked model: the archive's single top-level folder, else everything it held. */
function modelFolder(staging: string, fallbackName: string, nameForced: boolean): { source: string; name: string } {
  const entries = fs.readdirSync(staging, { withFileTypes: true });
  if (entries.length === 0) throw new PullError('unpack', 'The archive was empty.');
  const only = entries.length === 1 ? entries[0] : undefined;
  if (only && only.isDirectory()) {
    return { source: path.join(staging, only.name), name: nameForced ? fallbackName : only.name };
  }
  return { source: staging, name: fallbackName };
}

/** A model is plain files and folders; a link could point the service at files outside the model. */
function rejectLinks(dir: string, root: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) rejectLinks(full, root);
    else if (!entry.isFile()) {
      throw new PullError('unpack', `The archive holds ${path.relative(root, full)}, which is a link or special file; refused.`);
    }
  }
}
