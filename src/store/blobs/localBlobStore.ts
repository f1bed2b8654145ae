// The blob store as a local directory (today's layout: a key is a path under the data directory). A put is
// written under a temporary name and renamed, so a crash leaves the old blob or the new, never half.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type BlobInfo, BlobNotFoundError, type BlobStore, type ByteRange, checkKey } from './blobStore.js';

export class LocalBlobStore implements BlobStore {
  readonly kind = 'local' as const;

  constructor(readonly root: string) {}

  private file(key: string): string {
    return path.join(this.root, checkKey(key));
  }

  localPath(key: string): string {
    return this.file(key);
  }

  async put(key: string, body: Readable | Buffer | string): Promise<void> {
    const file = this.file(key);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const partial = `${file}.${crypto.randomUUID()}.partial`;
    try {
      if (typeof body === 'string' || Buffer.isBuffer(body)) fs.writeFileSync(partial, body, { mode: 0o600 });
      else await pipeline(body, fs.createWriteStream(partial, { mode: 0o600 }));
      fs.renameSync(partial, file);
    } catch (error) {
      fs.rmSync(partial, { force: true });
      throw error;
    }
  }

  async putFile(key: string, source: string, options: { move?: boolean } = {}): Promise<void> {
    const file = this.file(key);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    if (options.move) {
      try {
        fs.renameSync(source, file);
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      }
    }
    await this.put(key, fs.createReadStream(source));
    if (options.move) fs.rmSync(source, { force: true });
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const file = this.file(key);
    // Opened before answering, so a missing blob is an error here, not on the stream.
    let handle: fs.promises.FileHandle;
    try {
      handle = await fs.promises.open(file, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'EISDIR') throw new BlobNotFoundError(`no blob "${key}"`);
      throw error;
    }
    return handle.createReadStream(range ? { start: range.start, ...(range.end !== undefined && { end: range.end }) } : {});
  }

  async head(key: string): Promise<BlobInfo | undefined> {
    try {
      const stat = fs.statSync(this.file(key));
      return stat.isFile() ? { key, size: stat.size } : undefined;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    fs.rmSync(this.file(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<number> {
    const found = await this.list(prefix);
    for (const blob of found) fs.rmSync(this.file(blob.key), { force: true });
    // A folder prefix takes its (now empty) folder with it.
    if (prefix.endsWith('/')) fs.rmSync(this.file(prefix.slice(0, -1)), { recursive: true, force: true });
    return found.length;
  }

  async list(prefix: string): Promise<BlobInfo[]> {
    const slash = prefix.lastIndexOf('/');
    const folder = slash < 0 ? '' : prefix.slice(0, slash);
    const base = folder ? this.file(folder) : this.root;
    let names: string[];
    try {
      names = fs.readdirSync(base, { recursive: true }).map(String);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return [];
      throw error;
    }
    const out: BlobInfo[] = [];
    for (const name of names) {
      const key = (folder ? `${folder}/${name}` : name).split(path.sep).join('/');
      if (!key.startsWith(prefix) || key.endsWith('.partial')) continue;
      const stat = fs.statSync(path.join(base, name));
      if (stat.isFile()) out.push({ key, size: stat.size });
    }
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }
}

/** A stream of a Buffer or string body (what put() accepts). */
export function bodyStream(body: Readable | Buffer | string): Readable {
  return typeof body === 'string' || Buffer.isBuffer(body) ? Readable.from([Buffer.from(body)]) : body;
}
