// Whether the engine can decode: a tiny decode (half a second of a tone in memory, no file, no ffmpeg) with the
// default model, as /ready reports it. A decode costs a model's load on a cold process, so its answer is kept
// for `ttlMs` and calls meanwhile share it (one decode in flight at most); a decode that does not finish within
// `timeoutMs` counts as a failure (the engine is stuck or the machine saturated: not ready to take jobs).
import { WIDEBAND_MODEL, isAutoModel } from './models.js';
import { engineFor, recognizePcm } from './recognize.js';

export interface DecodeCheckResult {
  ok: boolean;
  /** The model that decoded (or was asked). */
  model: string;
  /** When the decode ran (ISO time); the answer is reused until `ttlMs` after it. */
  checkedAt: string;
  /** Why the decode failed (the engine's message). */
  error?: string;
}

export interface DecodeCheckOptions {
  /** The model to decode with (the default model in force: set-parameter `model`); auto decodes wideband. */
  model: () => Promise<string>;
  ttlMs?: number;
  timeoutMs?: number;
  /** The decode itself (tests replace it). Default: recognizePcm. */
  decode?: (model: string) => Promise<unknown>;
}

/** Half a second of a 440 Hz tone at `rate` Hz, quiet (a decode of it is cheap and may find no word). */
export function probeTone(rate: number, seconds = 0.5): Int16Array {
  const pcm = new Int16Array(Math.round(rate * seconds));
  for (let i = 0; i < pcm.length; i++) pcm[i] = Math.round(2000 * Math.sin((2 * Math.PI * 440 * i) / rate));
  return pcm;
}

async function defaultDecode(requested: string): Promise<unknown> {
  const model = isAutoModel(requested) ? WIDEBAND_MODEL : requested;
  const rate = engineFor(model).sampleRate(model);
  return recognizePcm([probeTone(rate)], rate, { model });
}

export class DecodeCheck {
  private last: { result: DecodeCheckResult; at: number } | undefined;
  private running: Promise<DecodeCheckResult> | undefined;
  /** Decodes run so far (tests read it: a second /ready within ttlMs must not decode again). */
  decodes = 0;

  constructor(private readonly options: DecodeCheckOptions) {}

  async check(): Promise<DecodeCheckResult> {
    const ttl = this.options.ttlMs ?? 30_000;
    if (this.last && Date.now() - this.last.at < ttl) return this.last.result;
    this.running ??= this.run().finally(() => (this.running = undefined));
    return this.running;
  }

  private async run(): Promise<DecodeCheckResult> {
    const started = Date.now();
    let model = 'unknown';
    let result: DecodeCheckResult;
    try {
      model = await this.options.model();
      this.decodes++;
      const timeoutMs = this.options.timeoutMs ?? 60_000;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the test decode did not finish within ${timeoutMs} ms`)), timeoutMs);
      });
      try {
        await Promise.race([(this.options.decode ?? defaultDecode)(model), timeout]);
      } finally {
        clearTimeout(timer);
      }
      result = { ok: true, model, checkedAt: new Date(started).toISOString() };
    } catch (error) {
      result = { ok: false, model, checkedAt: new Date(started).toISOString(), error: (error as Error).message };
    }
    this.last = { result, at: started };
    return result;
  }
}
