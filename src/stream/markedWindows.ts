// Windows a client marks live with `pause` / `resume` (issue 17: an agent desktop marks a payment segment), per
// channel, in stream audio time (seconds of audio received on that channel, never wall time). In flight, every
// final word overlapping one becomes the kind's mask (the same mask a job's window gives: windowMask) and no
// partial overlapping one is sent; when the call ends, the open ones close at the end of the recording and all
// of them become the after-call job's client-marked `sensitiveWindows` (source `mark`).
import { invalid, ServiceError } from '../errors.js';
import { canonicalKind } from '../redact/policy.js';
import type { RedactionRule } from '../redact/rules.js';
import { SENSITIVE_KIND, windowMask } from '../redact/windows/apply.js';
import { MAX_MARKED_WINDOWS, type SensitiveWindowMark } from '../schema/resources/request.js';
import type { Word } from '../transcript/types.js';

interface Marked {
  channel: number;
  kind: string;
  start: number;
  /** Infinity while the window is open. */
  end: number;
}

export class MarkedWindows {
  private readonly windows: Marked[] = [];

  constructor(private readonly channels: number) {}

  /**
   * Open a window of `kind` (SENSITIVE when absent) on `channel` (every channel when absent) at `at(channel)`.
   * A pause that cannot be done exactly as asked throws (the route then ends the stream: fail closed).
   */
  pause(kind: string | undefined, channel: number | undefined, at: (channel: number) => number): string {
    const canonical = kind === undefined || kind === SENSITIVE_KIND ? SENSITIVE_KIND : canonicalKind(kind);
    if (canonical === undefined || canonical === 'all') {
      throw invalid(`pause: "${kind}" is not an entity kind (name one, e.g. CreditCardNumber, or SENSITIVE).`, [{ pointer: '/kind', path: 'kind', message: 'must be an entity kind name or SENSITIVE' }]);
    }
    for (const c of this.targets(channel, 'pause')) {
      const open = this.open(c);
      if (open?.kind === canonical) continue; // already paused as asked: the window goes on
      if (this.windows.length >= MAX_MARKED_WINDOWS) {
        throw new ServiceError('unprocessable', `pause: a stream marks at most ${MAX_MARKED_WINDOWS} windows (the after-call job's limit).`);
      }
      // Another kind: the window goes on uninterrupted under the new kind from here.
      if (open) open.end = at(c);
      this.windows.push({ channel: c, kind: canonical, start: at(c), end: Infinity });
    }
    return canonical;
  }

  /** Close the open window of `channel` (every open one when absent); throws (409) when none is open there. */
  resume(channel: number | undefined, at: (channel: number) => number): void {
    const targets = this.targets(channel, 'resume').filter((c) => this.open(c));
    if (targets.length === 0) {
      throw new ServiceError('conflict', `resume: no window is open${channel === undefined ? '' : ` on channel ${channel}`} (send pause first).`);
    }
    for (const c of targets) this.open(c)!.end = at(c);
  }

  /** Whether [start, end) on `channel` touches a window (an open one reaches to the end of the stream). */
  overlaps(channel: number, start: number, end: number): boolean {
    return this.windows.some((w) => w.channel === channel && start < w.end && end > w.start);
  }

  /** Words of `channel` overlapping a window replaced by its kind's mask (a run in one window: one mask word). */
  mask(channel: number, words: readonly Word[], rules: readonly RedactionRule[]): { words: Word[]; kinds: string[] } {
    const mine = this.windows.filter((w) => w.channel === channel);
    const kinds = new Set<string>();
    const out: Word[] = [];
    let run: { word: Word; window: Marked } | undefined;
    for (const word of words) {
      const window = mine.find((w) => word.start < w.end && word.end > w.start);
      if (!window) {
        run = undefined;
        out.push(word);
        continue;
      }
      kinds.add(window.kind);
      const replacement = windowMask(window.kind, rules);
      if (replacement === '') continue; // Remove: the words go
      if (run?.window === window) {
        run.word.end = Math.max(run.word.end, word.end);
        continue;
      }
      run = { word: { word: replacement, start: word.start, end: word.end, confidence: 1 }, window };
      out.push(run.word);
    }
    return { words: out, kinds: [...kinds] };
  }

  /** The end of the stream: open windows close at `end` (the recording's length). */
  closeAll(end: number): void {
    for (const w of this.windows) if (w.end === Infinity) w.end = end;
  }

  /**
   * The windows as marks for the after-call job, to the millisecond and rounded outwards (more, never less);
   * an empty one (pause and resume with no audio between) is dropped: there is nothing in it.
   */
  marks(): SensitiveWindowMark[] {
    return this.windows
      .filter((w) => w.end !== Infinity)
      .map((w) => ({ start: Math.floor(w.start * 1000) / 1000, end: Math.ceil(w.end * 1000) / 1000, channel: w.channel, ...(w.kind !== SENSITIVE_KIND && { kind: w.kind }) }) as SensitiveWindowMark)
      .filter((m) => m.end > m.start);
  }

  private open(channel: number): Marked | undefined {
    return this.windows.find((w) => w.channel === channel && w.end === Infinity);
  }

  private targets(channel: number | undefined, what: string): number[] {
    if (channel === undefined) return Array.from({ length: this.channels }, (_, i) => i);
    if (!Number.isInteger(channel) || channel < 0 || channel >= this.channels) {
      throw invalid(`${what}: the stream has ${this.channels} channel${this.channels === 1 ? '' : 's'} (0-based): no channel ${channel}.`, [
        { pointer: '/channel', path: 'channel', message: `must be a channel of the stream (0-${this.channels - 1})` },
      ]);
    }
    return [channel];
  }
}
