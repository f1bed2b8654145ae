// A WAV file written as audio arrives (a live stream's recording): a header with placeholder sizes, then the
// interleaved 16-bit PCM appended, then the sizes patched in at close. Nothing of the call is kept in memory.
import fs from 'node:fs';

export class WavWriter {
  private readonly fd: number;
  private bytes = 0;
  private closed = false;

  constructor(
    readonly path: string,
    readonly sampleRate: number,
    readonly channels: number,
  ) {
    this.fd = fs.openSync(path, 'w');
    fs.writeSync(this.fd, header(sampleRate, channels, 0));
  }

  /** Seconds written. */
  get seconds(): number {
    return this.bytes / 2 / this.channels / this.sampleRate;
  }

  /** Interleaved samples (frames of `channels`). */
  append(samples: Int16Array): void {
    if (this.closed || samples.length === 0) return;
    fs.writeSync(this.fd, new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength));
    this.bytes += samples.byteLength;
  }

  /** Mark the file as in use (the upload sweep leaves files changed recently): a stream silent for long writes nothing. */
  touch(): void {
    if (this.closed) return;
    const now = new Date();
    fs.futimesSync(this.fd, now, now);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    fs.writeSync(this.fd, header(this.sampleRate, this.channels, this.bytes), 0, 44, 0);
    fs.closeSync(this.fd);
  }
}

function header(sampleRate: number, channels: number, dataBytes: number): Buffer {
  const b = Buffer.alloc(44);
  b.write('RIFF', 0);
  b.writeUInt32LE(36 + dataBytes, 4);
  b.write('WAVE', 8);
  b.write('fmt ', 12);
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20); // PCM
  b.writeUInt16LE(channels, 22);
  b.writeUInt32LE(sampleRate, 24);
  b.writeUInt32LE(sampleRate * channels * 2, 28);
  b.writeUInt16LE(channels * 2, 32);
  b.writeUInt16LE(16, 34);
  b.write('data', 36);
  b.writeUInt32LE(dataBytes, 40);
  return b;
}
