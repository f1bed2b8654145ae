// Recordings out of a zip upload (`isZip`): each file entry streamed to its own temporary file. Entry names
// never become paths (no traversal). The caps hold on the bytes actually inflated, not on the sizes the zip
// declares (a zip bomb may declare anything): each entry, the zip in all, and the number of entries. Beyond those,
// an entry may not unpack to more than a recording could be: a WAV no more than its header declares, nor more than
// the duration limit allows at its byte rate (a WAV that declares more is refused at its header); anything else no
// more than COMPRESSION_RATIO times its compressed size (past a floor), since compressed audio hardly deflates: a
// small zip of silence can no longer fill the disk before its audio is refused. Any refusal removes every file
// written so far.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import { ServiceError, invalid } from '../errors.js';

export interface ZipEntryFile {
  /** The entry's name inside the zip (for the job's fileName). */
  name: string;
  path: string;
}

export interface UnzipLimits {
  /** Recordings (file entries) the zip may hold. */
  maxEntries: number;
  /** Bytes the zip may unpack to in all. */
  maxTotalBytes: number;
  /** Bytes one entry may unpack to (default maxTotalBytes). */
  maxEntryBytes?: number;
  /** Seconds a recording may last (SCRUBLINE_MAX_AUDIO_SECONDS): bounds what a WAV entry may unpack to. */
  maxSeconds?: number;
}

/** A non-WAV entry may unpack to this many times its compressed size ... */
export const COMPRESSION_RATIO = 100;
/** ... or to this, whichever is more (small entries are never refused for their ratio). */
export const RATIO_FLOOR_BYTES = 64 * 1024 * 1024;
/** What of an entry is kept to read a WAV header from. */
const HEAD_BYTES = 64 * 1024;

interface WavHead {
  /** Bytes before the samples. */
  dataOffset: number;
  /** Bytes of samples per second (the fmt chunk's). */
  byteRate: number;
  /** The data chunk's declared size; undefined when unknown (0, 0xFFFFFFFF: written while streaming; RF64). */
  declared: number | undefined;
}

/** A WAV's header from the first bytes of an entry: 'more' while they do not reach its data chunk yet. */
export function readWavHead(head: Buffer, complete: boolean): WavHead | 'more' | undefined {
  if (head.length < 12) return complete ? undefined : 'more';
  const riff = head.toString('latin1', 0, 4);
  if ((riff !== 'RIFF' && riff !== 'RF64') || head.toString('latin1', 8, 12) !== 'WAVE') return undefined;
  let byteRate = 0;
  for (let at = 12; ; ) {
    if (at + 8 > head.length) return complete || head.length >= HEAD_BYTES ? undefined : 'more';
    const id = head.toString('latin1', at, at + 4);
    const size = head.readUInt32LE(at + 4);
    if (id === 'fmt ') {
      if (at + 20 > head.length) return complete || head.length >= HEAD_BYTES ? undefined : 'more';
      byteRate = head.readUInt32LE(at + 16);
    } else if (id === 'data') {
      if (byteRate <= 0) return undefined;
      const unknown = riff === 'RF64' || size === 0 || size === 0xffffffff;
      return { dataOffset: at + 8, byteRate, declared: unknown ? undefined : size };
    }
    at += 8 + size + (size % 2);
  }
}

const IGNORED = /(^|\/)(__MACOSX\/|\.DS_Store$|\._)/;

function open(zipPath: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(zipPath, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false }, (error, zip) => (error ? reject(error) : resolve(zip!))),
  );
}

function readStream(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<NodeJS.ReadableStream> {
  return new Promise((resolve, reject) => zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream!))));
}

function tooLarge(message: string, limit: number): ServiceError {
  return new ServiceError('too_large', message, [], { reason: 'zip_too_large', limitBytes: limit });
}

/**
 * Counts the inflated bytes of one entry against its own cap, the zip's running total and what a recording of its
 * kind could be (decided from its first bytes).
 */
class ByteCap extends Transform {
  private entryBytes = 0;
  private head: Buffer | undefined = Buffer.alloc(0);
  /** What this entry may unpack to as a recording (undefined until its first bytes are read). */
  private recordingCap: number | undefined;

  constructor(
    private readonly counter: { total: number },
    private readonly limits: Required<Omit<UnzipLimits, 'maxSeconds'>> & Pick<UnzipLimits, 'maxSeconds'>,
    private readonly name: string,
    private readonly compressedSize: number,
  ) {
    super();
  }

  /** Decide the entry's cap from its first bytes; throws when a WAV's header already says it is too long. */
  private decide(complete: boolean): void {
    const wav = readWavHead(this.head!, complete);
    if (wav === 'more') return;
    this.head = undefined;
    if (!wav) {
      this.recordingCap = Math.max(RATIO_FLOOR_BYTES, this.compressedSize * COMPRESSION_RATIO);
      return;
    }
    const maxSeconds = this.limits.maxSeconds;
    const longest = maxSeconds !== undefined ? wav.byteRate * (maxSeconds + 1) : Infinity;
    if (wav.declared !== undefined && maxSeconds !== undefined && wav.declared > longest) {
      throw tooLong(
        `The zip entry "${this.name}" is a WAV of ${(wav.declared / wav.byteRate).toFixed(1)} s, more than the ${maxSeconds} s allowed.`,
        this.entryBytes,
      );
    }
    // A WAV may carry chunks after its samples (cue points, metadata): a little room for them.
    const declared = wav.declared !== undefined ? wav.declared + Math.max(1024 * 1024, Math.ceil(wav.declared / 100)) : Infinity;
    this.recordingCap = wav.dataOffset + Math.min(declared, longest);
  }

  private check(complete: boolean): ServiceError | undefined {
    try {
      if (this.recordingCap === undefined) this.decide(complete);
    } catch (error) {
      return error as ServiceError;
    }
    if (this.recordingCap !== undefined && this.entryBytes > this.recordingCap) {
      return new ServiceError('too_large', `The zip entry "${this.name}" unpacks to more than a recording of its kind could be (${this.recordingCap} bytes).`, [], {
        reason: 'zip_entry_not_a_recording',
        limitBytes: this.recordingCap,
        unpackedBytes: this.entryBytes,
      });
    }
    return undefined;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.entryBytes += chunk.length;
    this.counter.total += chunk.length;
    if (this.entryBytes > this.limits.maxEntryBytes) {
      return done(tooLarge(`The zip entry "${this.name}" unpacks to more than ${this.limits.maxEntryBytes} bytes.`, this.limits.maxEntryBytes));
    }
    if (this.counter.total > this.limits.maxTotalBytes) {
      return done(tooLarge(`The zip unpacks to more than ${this.limits.maxTotalBytes} bytes.`, this.limits.maxTotalBytes));
    }
    if (this.head) this.head = Buffer.concat([this.head, chunk.subarray(0, HEAD_BYTES - this.head.length)]);
    const refused = this.check(false);
    done(refused ?? null, refused ? undefined : chunk);
  }

  override _flush(done: TransformCallback): void {
    done(this.check(true) ?? null);
  }
}

function tooLong(message: string, unpackedBytes: number): ServiceError {
  return new ServiceError('too_large', message, [], { reason: 'too_long', unpackedBytes });
}

export async function extractRecordings(zipPath: string, destDir: string, limits: UnzipLimits): Promise<ZipEntryFile[]> {
  const caps = { ...limits, maxEntryBytes: Math.min(limits.maxEntryBytes ?? limits.maxTotalBytes, limits.maxTotalBytes) };
  let zip: yauzl.ZipFile;
  try {
    zip = await open(zipPath);
  } catch (error) {
    throw new ServiceError('unprocessable', `The upload is not a readable zip: ${(error as Error).message}`, [], { reason: 'not_zip' });
  }
  const files: ZipEntryFile[] = [];
  const counter = { total: 0 };
  // Folders and ignored entries are skipped without unpacking, but a zip of millions of them is still refused.
  const maxRecords = caps.maxEntries * 4 + 64;
  try {
    if (zip.entryCount > maxRecords) {
      throw tooLarge(`The zip holds ${zip.entryCount} entries; at most ${caps.maxEntries} files are accepted.`, caps.maxTotalBytes);
    }
    fs.mkdirSync(destDir, { recursive: true });
    await new Promise<void>((resolve, reject) => {
      zip.on('error', reject);
      zip.on('end', () => resolve());
      zip.on('entry', (entry: yauzl.Entry) => {
        void (async () => {
          if (entry.fileName.endsWith('/') || IGNORED.test(entry.fileName)) return zip.readEntry();
          if (files.length >= caps.maxEntries) {
            throw new ServiceError('too_large', `The zip holds more than ${caps.maxEntries} files.`, [], { reason: 'zip_too_many_files', maxEntries: caps.maxEntries });
          }
          // A declared size over the cap is refused before inflating anything; the bytes read are counted anyway.
          if (entry.uncompressedSize > caps.maxEntryBytes) {
            throw tooLarge(`The zip entry "${entry.fileName}" unpacks to more than ${caps.maxEntryBytes} bytes.`, caps.maxEntryBytes);
          }
          const target = path.join(destDir, `${crypto.randomUUID()}.zip-entry`);
          files.push({ name: path.posix.basename(entry.fileName), path: target });
          await pipeline(await readStream(zip, entry), new ByteCap(counter, caps, entry.fileName, entry.compressedSize), fs.createWriteStream(target));
          zip.readEntry();
        })().catch(reject);
      });
      zip.readEntry();
    });
  } catch (error) {
    for (const file of files) fs.rmSync(file.path, { force: true });
    if (error instanceof ServiceError) throw error;
    // yauzl counts what an entry inflates to against what it declares: more is a malformed (or hostile) zip.
    if (/too many bytes in the stream/.test((error as Error).message)) {
      throw new ServiceError('unprocessable', 'A zip entry unpacks to more bytes than it declares; the zip is malformed.', [], { reason: 'bad_zip' });
    }
    throw new ServiceError('unprocessable', `The zip could not be unpacked: ${(error as Error).message}`, [], { reason: 'bad_zip' });
  } finally {
    zip.close();
  }
  if (files.length === 0) throw invalid('The zip holds no files.');
  return files;
}
