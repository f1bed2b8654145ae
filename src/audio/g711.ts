// G.711 companding (ITU-T G.711, the classic Sun reference algorithm): the mu-law and A-law bytes of telephone
// recordings (and live telephone audio: Twilio Media Streams send mu-law, European trunks A-law) to and from
// 16-bit linear PCM. Decoding goes through 256-entry tables built once; ffmpeg's pcm_mulaw/pcm_alaw decoders give
// the same values.

const BIAS = 0x84;
const CLIP = 32635;

function ulawToLinear(byte: number): number {
  const u = ~byte & 0xff;
  let t = ((u & 0x0f) << 3) + BIAS;
  t <<= (u & 0x70) >> 4;
  return u & 0x80 ? BIAS - t : t - BIAS;
}

function alawToLinear(byte: number): number {
  const a = byte ^ 0x55;
  let t = (a & 0x0f) << 4;
  const segment = (a & 0x70) >> 4;
  if (segment === 0) t += 8;
  else t = (t + 0x108) << (segment - 1);
  return a & 0x80 ? t : -t;
}

/** Linear value of each mu-law / A-law byte. */
export const MULAW_TO_LINEAR: Int16Array = Int16Array.from({ length: 256 }, (_, b) => ulawToLinear(b));
export const ALAW_TO_LINEAR: Int16Array = Int16Array.from({ length: 256 }, (_, b) => alawToLinear(b));

/** The mu-law byte of a 16-bit sample. */
export function linearToMulaw(sample: number): number {
  let s = Math.max(-32768, Math.min(32767, Math.round(sample)));
  const sign = s < 0 ? 0x80 : 0;
  if (sign) s = -s;
  s = Math.min(s, CLIP) + BIAS;
  let exponent = 7;
  for (let mask = 0x4000; (s & mask) === 0 && exponent > 0; mask >>= 1) exponent--;
  const mantissa = (s >> (exponent + 3)) & 0x0f;
  return ~(sign | (exponent << 4) | mantissa) & 0xff;
}

/** The A-law byte of a 16-bit sample. */
export function linearToAlaw(sample: number): number {
  let s = Math.max(-32768, Math.min(32767, Math.round(sample)));
  const sign = s >= 0 ? 0x80 : 0;
  if (!sign) s = -s - 1;
  let byte: number;
  if (s < 256) byte = s >> 4;
  else {
    let exponent = 7;
    for (let mask = 0x4000; (s & mask) === 0 && exponent > 1; mask >>= 1) exponent--;
    byte = (exponent << 4) | ((s >> (exponent + 3)) & 0x0f);
  }
  return (byte | sign) ^ 0x55;
}

/** mu-law bytes → linear 16-bit samples. */
export function decodeMuLaw(bytes: Uint8Array): Int16Array {
  const out = new Int16Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) out[i] = MULAW_TO_LINEAR[bytes[i]];
  return out;
}

/** A-law bytes → linear 16-bit samples. */
export function decodeALaw(bytes: Uint8Array): Int16Array {
  const out = new Int16Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) out[i] = ALAW_TO_LINEAR[bytes[i]];
  return out;
}

/** Linear 16-bit samples → mu-law bytes (test clients and Twilio-format senders). */
export function encodeMuLaw(samples: Int16Array): Uint8Array {
  const out = new Uint8Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = linearToMulaw(samples[i]);
  return out;
}
