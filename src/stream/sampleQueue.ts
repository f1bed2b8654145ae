// The samples of one channel of a live stream waiting to be written to its recording: the recording interleaves
// the channels, so a channel ahead of another waits for it. Twilio sends each track on its own, and a two-track call
// one of whose tracks never sends (or falls far behind) would otherwise hold the other's whole call in memory
// (16 KB/s, 230 MB for four hours, per stream). Past `maxMemorySamples` the newer samples go to a file in the
// process's staging folder (jobs/stagingDir.ts), read back in order as the other channel catches up; the file is
// deleted once drained and when the stream ends.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export class SampleQueue {
  private memory: Int16Array[] = [];
  private memoryLength = 0;
  /** Newer samples than those in memory, when memory was full: written at `written`, read back from `read`. */
  private spill: { path: string; fd: number; written: number; read: number } | undefined;
  /** Samples waiting, in memory and in the file. */
  length = 0;

  constructor(
    private readonly dir: string,
    private readonly maxMemorySamples: number,
  ) {}

  /** Samples held in memory (the rest is in the file). */
  get inMemory(): number {
    return this.memoryLength;
  }

  /** Whether some samples wait in a file (its path), for tests and logs. */
  get spillPath(): string | undefined {
    return this.spill?.path;
  }

  push(samples: Int16Array): void {
    if (samples.length === 0) return;
    this.length += samples.length;
    if (!this.spill && this.memoryLength + samples.length <= this.maxMemorySamples) {
      this.memory.push(samples);
      this.memoryLength += samples.length;
      return;
    }
    if (!this.spill) {
      fs.mkdirSync(this.dir, { recursive: true });
      const file = path.join(this.dir, `stream-channel-${crypto.randomUUID()}.pcm`);
      this.spill = { path: file, fd: fs.openSync(file, 'w+'), written: 0, read: 0 };
    }
    fs.writeSync(this.spill.fd, new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength), 0, samples.byteLength, this.spill.written * 2);
    this.spill.written += samples.length;
  }

  /** The oldest `n` samples (fewer when fewer wait), removed from the queue. */
  take(n: number): Int16Array {
    const count = Math.min(n, this.length);
    const out = new Int16Array(count);
    for (let at = 0; at < count; ) {
      if (this.memoryLength === 0) this.refill();
      const head = this.memory[0];
      const k = Math.min(head.length, count - at);
      out.set(head.subarray(0, k), at);
      at += k;
      if (k === head.length) this.memory.shift();
      else this.memory[0] = head.subarray(k);
      this.memoryLength -= k;
    }
    this.length -= count;
    return out;
  }

  /** Memory is empty: read the next samples of the file back (the file goes once drained). */
  private refill(): void {
    const spill = this.spill!;
    const count = Math.min(Math.max(1, this.maxMemorySamples), spill.written - spill.read);
    const samples = new Int16Array(count);
    fs.readSync(spill.fd, new Uint8Array(samples.buffer), 0, count * 2, spill.read * 2);
    spill.read += count;
    this.memory.push(samples);
    this.memoryLength += count;
    if (spill.read === spill.written) this.close();
  }

  /** Delete the file, if any (what it held is dropped: the stream is over or aborted). */
  close(): void {
    if (!this.spill) return;
    const { fd, path: file } = this.spill;
    this.spill = undefined;
    try {
      fs.closeSync(fd);
    } finally {
      fs.rmSync(file, { force: true });
    }
  }
}
