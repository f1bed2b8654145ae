// yazl ships no types; the tests use it to build zip uploads.
declare module 'yazl' {
  import type { Readable } from 'node:stream';
  export class ZipFile {
    addBuffer(buffer: Buffer, name: string, options?: { mtime?: Date; mode?: number; compress?: boolean }): void;
    end(): void;
    outputStream: Readable;
  }
}
