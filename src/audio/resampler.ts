// A streaming resampler for live audio: 16-bit PCM chunks at one rate in, chunks at another out, with the state
// carried between chunks so that cutting the stream anywhere gives the same samples. Windowed-sinc
// interpolation (Blackman window, cutoff below the lower Nyquist frequency): telephone audio (8 kHz) goes up to
// the engine's 16 kHz as batch decoding does with ffmpeg (STACK.md: upsampling beat the native 8 kHz front end).
// Pure and synchronous: a 100 ms chunk costs well under a millisecond.

const HALF_TAPS = 16;

export class StreamResampler {
  private readonly step: number;
  private readonly cutoff: number;
  /** Input samples kept from earlier chunks (the filter's history). */
  private history = new Float32Array(0);
  /** Position of the next output sample, in input samples from the start of `history`. */
  private position = 0;

  constructor(
    readonly fromRate: number,
    readonly toRate: number,
  ) {
    if (!(fromRate > 0 && toRate > 0)) throw new RangeError('sample rates must be positive');
    this.step = fromRate / toRate;
    this.cutoff = Math.min(1, toRate / fromRate) * 0.95;
  }

  /** The output samples that `input` completes (a few are held back until the next chunk or flush()). */
  push(input: Int16Array): Int16Array {
    if (this.fromRate === this.toRate) return input.slice();
    const buffer = new Float32Array(this.history.length + input.length);
    buffer.set(this.history);
    for (let i = 0; i < input.length; i++) buffer[this.history.length + i] = input[i];
    return this.run(buffer, false);
  }

  /** The samples still held back (end of the stream): the input padded with silence. */
  flush(): Int16Array {
    if (this.fromRate === this.toRate) return new Int16Array(0);
    const buffer = new Float32Array(this.history.length + HALF_TAPS + 1);
    buffer.set(this.history);
    return this.run(buffer, true);
  }

  private run(buffer: Float32Array, final: boolean): Int16Array {
    const out: number[] = [];
    const halfWidth = Math.ceil(HALF_TAPS / this.cutoff);
    const limit = final ? buffer.length - HALF_TAPS - 1 : buffer.length - halfWidth - 1;
    let pos = this.position;
    while (pos <= limit) {
      const centre = Math.floor(pos);
      const frac = pos - centre;
      let sum = 0;
      let weight = 0;
      for (let k = -halfWidth + 1; k <= halfWidth; k++) {
        const index = centre + k;
        if (index < 0 || index >= buffer.length) continue;
        const x = k - frac;
        const w = kernel(x, this.cutoff, halfWidth);
        sum += buffer[index] * w;
        weight += w;
      }
      const value = weight !== 0 ? sum / weight : 0;
      out.push(Math.max(-32768, Math.min(32767, Math.round(value))));
      pos += this.step;
    }
    // Keep what the next output samples still need (halfWidth before the next position).
    const keepFrom = Math.max(0, Math.floor(pos) - halfWidth);
    this.history = final ? new Float32Array(0) : buffer.slice(keepFrom);
    this.position = final ? 0 : pos - keepFrom;
    return Int16Array.from(out);
  }
}

function kernel(x: number, cutoff: number, halfWidth: number): number {
  if (Math.abs(x) >= halfWidth) return 0;
  const t = Math.PI * cutoff * x;
  const sinc = x === 0 ? 1 : Math.sin(t) / t;
  const n = (x + halfWidth) / (2 * halfWidth);
  const window = 0.42 - 0.5 * Math.cos(2 * Math.PI * n) + 0.08 * Math.cos(4 * Math.PI * n);
  return cutoff * sinc * window;
}
