// Audio redaction at copy speed for WAV files of PCM or G.711 (what contact-center recorders write): the file is
// copied as it is and only the bytes of the redacted spans are rewritten, in the file's own sample format. No
// decode and re-encode of the whole call; the header, the other chunks and every sample outside the spans stay
// byte for byte. Reading the samples for keypad-tone detection is a table lookup, not an ffmpeg run.
import fs from 'node:fs/promises';
import { ALAW_TO_LINEAR, linearToAlaw, linearToMulaw, MULAW_TO_LINEAR } from './g711.js';
import type { WavLayout } from './wavLayout.js';

/** Bytes read or written at once (whole frames of any layout fit: block aligns are at most a few dozen bytes). */
const CHUNK_BYTES = 1 << 20;

/** The recording's samples as interleaved 16-bit PCM (what ffmpeg's decoder would give). */
export async function readWavSamples(file: string, layout: WavLayout): Promise<Int16Array> {
  const samples = new Int16Array(layout.dataBytes / layout.bytesPerSample);
  const handle = await fs.open(file, 'r');
  try {
    const chunk = Buffer.alloc(CHUNK_BYTES - (CHUNK_BYTES % layout.blockAlign));
    let done = 0;
    while (done < layout.dataBytes) {
      const { bytesRead } = await handle.read(chunk, 0, Math.min(chunk.length, layout.dataBytes - done), layout.dataOffset + done);
      if (bytesRead === 0) break;
      decodeInto(samples, done / layout.bytesPerSample, chunk.subarray(0, bytesRead), layout);
      done += bytesRead;
    }
    return samples;
  } finally {
    await handle.close();
  }
}

function decodeInto(out: Int16Array, at: number, bytes: Buffer, layout: WavLayout): void {
  switch (layout.format) {
    case 'pcm_s16le':
      // Little-endian like the machine (x86, arm64): a byte copy.
      new Uint8Array(out.buffer, out.byteOffset + at * 2, bytes.length & ~1).set(bytes.subarray(0, bytes.length & ~1));
      return;
    case 'pcm_u8':
      for (let i = 0; i < bytes.length; i++) out[at + i] = (bytes[i] - 128) << 8;
      return;
    case 'pcm_mulaw':
      for (let i = 0; i < bytes.length; i++) out[at + i] = MULAW_TO_LINEAR[bytes[i]];
      return;
    case 'pcm_alaw':
      for (let i = 0; i < bytes.length; i++) out[at + i] = ALAW_TO_LINEAR[bytes[i]];
      return;
  }
}

/** Writes one 16-bit sample value into `bytes` at `offset` in the layout's format. */
function encodeAt(bytes: Buffer, offset: number, value: number, layout: WavLayout): void {
  switch (layout.format) {
    case 'pcm_s16le':
      bytes.writeInt16LE(value, offset);
      return;
    case 'pcm_u8':
      bytes[offset] = (value >> 8) + 128;
      return;
    case 'pcm_mulaw':
      bytes[offset] = linearToMulaw(value);
      return;
    case 'pcm_alaw':
      bytes[offset] = linearToAlaw(value);
      return;
  }
}

/** A span of one channel in frames: [from, to). */
export interface FrameSpan {
  channel: number;
  from: number;
  to: number;
}

/**
 * Copies `source` to `output` and replaces the samples of each span on its channel by `sampleAt(frame)`.
 * Answers once the copy is written and closed.
 */
export async function writeWavRedacted(source: string, output: string, layout: WavLayout, spans: readonly FrameSpan[], sampleAt: (frame: number) => number): Promise<void> {
  await fs.copyFile(source, output);
  const handle = await fs.open(output, 'r+');
  try {
    const framesPerChunk = Math.max(1, Math.floor(CHUNK_BYTES / layout.blockAlign));
    const buffer = Buffer.alloc(framesPerChunk * layout.blockAlign);
    for (const span of spans) {
      for (let from = span.from; from < span.to; from += framesPerChunk) {
        const to = Math.min(span.to, from + framesPerChunk);
        const length = (to - from) * layout.blockAlign;
        const position = layout.dataOffset + from * layout.blockAlign;
        const bytes = buffer.subarray(0, length);
        const { bytesRead } = await handle.read(bytes, 0, length, position);
        if (bytesRead !== length) throw new Error(`the copy of the recording ends early (${bytesRead} of ${length} bytes at ${position})`);
        for (let frame = from; frame < to; frame++) {
          encodeAt(bytes, (frame - from) * layout.blockAlign + span.channel * layout.bytesPerSample, sampleAt(frame), layout);
        }
        await handle.write(bytes, 0, length, position);
      }
    }
  } finally {
    await handle.close();
  }
}
