// G.711 companding (ITU-T G.711): 8-bit mu-law and A-law telephone samples to 16-bit linear PCM, by table.
// Live telephone audio arrives this way (Twilio Media Streams send mu-law; European trunks A-law).

function muLawSample(byte: number): number {
  const u = ~byte & 0xff;
  const t = ((u & 0x0f) << 3) + 0x84;
  const magnitude = (t << ((u & 0x70) >> 4)) - 0x84;
  return u & 0x80 ? -magnitude : magnitude;
}

function aLawSample(byte: number): number {
  const a = byte ^ 0x55;
  let t = (a & 0x0f) << 4;
  const segment = (a & 0x70) >> 4;
  if (segment === 0) t += 8;
  else if (segment === 1) t += 0x108;
  else t = (t + 0x108) << (segment - 1);
  return a & 0x80 ? t : -t;
}

const MU_LAW = Int16Array.from({ length: 256 }, (_, i) => muLawSample(i));
const A_LAW = Int16Array.from({ length: 256 }, (_, i) => aLawSample(i));

/** mu-law bytes → linear 16-bit samples. */
export function decodeMuLaw(bytes: Uint8Array): Int16Array {
  const out = new Int16Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) out[i] = MU_LAW[bytes[i]];
  return out;
}

/** A-law bytes → linear 16-bit samples. */
export function decodeALaw(bytes: Uint8Array): Int16Array {
  const out = new Int16Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) out[i] = A_LAW[bytes[i]];
  return out;
}

/** Linear 16-bit samples → mu-law bytes (test clients and Twilio-format senders). */
export function encodeMuLaw(samples: Int16Array): Uint8Array {
  const out = new Uint8Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    let s = samples[i];
    const sign = s < 0 ? 0x80 : 0;
    if (s < 0) s = -s;
    s = Math.min(s, 32635) + 0x84;
    let exponent = 7;
    for (let mask = 0x4000; (s & mask) === 0 && exponent > 0; mask >>= 1) exponent--;
    const mantissa = (s >> (exponent + 3)) & 0x0f;
    out[i] = ~(sign | (exponent << 4) | mantissa) & 0xff;
  }
  return out;
}
