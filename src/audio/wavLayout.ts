// Where the samples of a plain WAV file lie: the `fmt ` chunk's format and the `data` chunk's place. Only what
// can be read and edited byte for byte is described (16-bit and 8-bit PCM, mu-law, A-law, WAVE_FORMAT_EXTENSIBLE
// with those sub-formats); anything else (RF64, floats, 24/32-bit, compressed WAV) answers undefined and goes
// through ffmpeg.
import fs from 'node:fs/promises';

export type WavSampleFormat = 'pcm_s16le' | 'pcm_u8' | 'pcm_mulaw' | 'pcm_alaw';

export interface WavLayout {
  format: WavSampleFormat;
  channels: number;
  sampleRate: number;
  /** Bytes per frame (one sample of every channel). */
  blockAlign: number;
  bytesPerSample: number;
  /** File offset of the first sample. */
  dataOffset: number;
  /** Bytes of whole frames in the data chunk (what the file holds, when the header declares 0 or more). */
  dataBytes: number;
}

const FORMAT_PCM = 1;
const FORMAT_ALAW = 6;
const FORMAT_MULAW = 7;
const FORMAT_EXTENSIBLE = 0xfffe;

function sampleFormat(tag: number, bits: number): WavSampleFormat | undefined {
  if (tag === FORMAT_PCM && bits === 16) return 'pcm_s16le';
  if (tag === FORMAT_PCM && bits === 8) return 'pcm_u8';
  if (tag === FORMAT_MULAW && bits === 8) return 'pcm_mulaw';
  if (tag === FORMAT_ALAW && bits === 8) return 'pcm_alaw';
  return undefined;
}

/** The layout of `file` when it is a WAV whose samples can be edited in place, else undefined. */
export async function readWavLayout(file: string): Promise<WavLayout | undefined> {
  const handle = await fs.open(file, 'r');
  try {
    const { size: fileSize } = await handle.stat();
    const read = async (offset: number, length: number) => {
      const buf = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buf, 0, length, offset);
      return buf.subarray(0, bytesRead);
    };
    const head = await read(0, 12);
    if (head.length < 12 || head.toString('latin1', 0, 4) !== 'RIFF' || head.toString('latin1', 8, 12) !== 'WAVE') return undefined;
    let fmt: { format: WavSampleFormat; channels: number; sampleRate: number; blockAlign: number; bytesPerSample: number } | undefined;
    let offset = 12;
    // A few chunks at most come before the data; a file that is all chunk headers is not a recording to edit.
    for (let chunks = 0; chunks < 64 && offset + 8 <= fileSize; chunks++) {
      const header = await read(offset, 8);
      if (header.length < 8) return undefined;
      const id = header.toString('latin1', 0, 4);
      const size = header.readUInt32LE(4);
      if (id === 'fmt ') {
        const body = await read(offset + 8, Math.min(size, 40));
        if (body.length < 16) return undefined;
        let tag = body.readUInt16LE(0);
        const bits = body.readUInt16LE(14);
        if (tag === FORMAT_EXTENSIBLE && body.length >= 26) tag = body.readUInt16LE(24);
        const format = sampleFormat(tag, bits);
        const channels = body.readUInt16LE(2);
        const blockAlign = body.readUInt16LE(12);
        if (!format || channels < 1 || blockAlign !== channels * (bits / 8)) return undefined;
        fmt = { format, channels, sampleRate: body.readUInt32LE(4), blockAlign, bytesPerSample: bits / 8 };
      } else if (id === 'data') {
        if (!fmt) return undefined;
        const dataOffset = offset + 8;
        const held = fileSize - dataOffset;
        const declared = size === 0 || size === 0xffffffff ? held : Math.min(size, held);
        return { ...fmt, dataOffset, dataBytes: declared - (declared % fmt.blockAlign) };
      }
      offset += 8 + size + (size % 2);
    }
    return undefined;
  } finally {
    await handle.close();
  }
}
