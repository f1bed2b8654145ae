// Recordings out of a zip upload (`isZip`): each file entry written to its own temporary file. Entry names
// never become paths (no traversal), and the count and the unpacked size are capped (no zip bombs).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import { ServiceError, invalid } from '../errors.js';

export interface ZipEntryFile {
  /** The entry's name inside the zip (for the job's fileName). */
  name: string;
  path: string;
}

export interface UnzipLimits {
  maxEntries: number;
  maxTotalBytes: number;
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

export async function extractRecordings(zipPath: string, destDir: string, limits: UnzipLimits): Promise<ZipEntryFile[]> {
  let zip: yauzl.ZipFile;
  try {
    zip = await open(zipPath);
  } catch (error) {
    throw new ServiceError('unprocessable', `The upload is not a readable zip: ${(error as Error).message}`, [], { reason: 'not_zip' });
  }
  const files: ZipEntryFile[] = [];
  let total = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', reject);
      zip.on('end', () => resolve());
      zip.on('entry', (entry: yauzl.Entry) => {
        void (async () => {
          if (entry.fileName.endsWith('/') || IGNORED.test(entry.fileName)) return zip.readEntry();
          if (files.length >= limits.maxEntries) throw invalid(`The zip holds more than ${limits.maxEntries} files.`);
          total += entry.uncompressedSize;
          if (total > limits.maxTotalBytes) throw new ServiceError('too_large', `The zip unpacks to more than ${limits.maxTotalBytes} bytes.`);
          const target = path.join(destDir, `${crypto.randomUUID()}.zip-entry`);
          files.push({ name: path.posix.basename(entry.fileName), path: target });
          await pipeline(await readStream(zip, entry), fs.createWriteStream(target));
          zip.readEntry();
        })().catch(reject);
      });
      zip.readEntry();
    });
  } catch (error) {
    for (const file of files) fs.rmSync(file.path, { force: true });
    if (error instanceof ServiceError) throw error;
    throw new ServiceError('unprocessable', `The zip could not be unpacked: ${(error as Error).message}`, [], { reason: 'bad_zip' });
  } finally {
    zip.close();
  }
  if (files.length === 0) throw invalid('The zip holds no files.');
  return files;
}
