// Recordings out of a zip upload (`isZip`): each file entry streamed to its own temporary file. Entry names
// never become paths (no traversal). The caps hold on the bytes actually inflated, not on the sizes the zip
// declares (a zip bomb may declare anything): each entry, the zip in all, and the number of entries. Any
// refusal removes every file written so far.
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

/** Counts the inflated bytes of one entry against its own cap and the zip's running total. */
class ByteCap extends Transform {
  private entryBytes = 0;

  constructor(
    private readonly counter: { total: number },
    private readonly limits: Required<UnzipLimits>,
    private readonly name: string,
  ) {
    super();
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
    done(null, chunk);
  }
}

export async function extractRecordings(zipPath: string, destDir: string, limits: UnzipLimits): Promise<ZipEntryFile[]> {
  const caps: Required<UnzipLimits> = { ...limits, maxEntryBytes: Math.min(limits.maxEntryBytes ?? limits.maxTotalBytes, limits.maxTotalBytes) };
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
          await pipeline(await readStream(zip, entry), new ByteCap(counter, caps, entry.fileName), fs.createWriteStream(target));
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
