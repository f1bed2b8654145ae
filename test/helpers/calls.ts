// Synthesized two-party phone calls for measuring spoken-number redaction (issue 17): 8 kHz stereo WAVs, the agent
// on one channel and the caller on the other, made on the spot from per-utterance TTS clips (espeak-ng and
// festival voices) placed with known silences, plus background noise at a chosen SNR. Because every clip's place
// and length are known to the sample, the GOLD spans of the spoken card, account, SSN, CVV and date-of-birth audio
// are exact (trimmed to the clip's own speech). A measure compares them with a job's redacted audio spans.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ffmpeg, speakFestival } from './audio.js';

export const CALL_RATE = 8000;

export type GoldKind = 'CreditCardNumber' | 'USBankAccountNumber' | 'USSocialSecurityNumber' | 'CVV' | 'DateOfBirth';

export interface GoldSpan {
  channel: number;
  start: number;
  end: number;
  kind: GoldKind;
  /** The digits (or date words) spoken: for checking the text, never printed by the tests. */
  digits: string;
  /** The words spoken in the span. */
  words: string[];
}

export interface SyntheticCall {
  wav: string;
  duration: number;
  agentChannel: number;
  gold: GoldSpan[];
  snrDb: number;
  /** Every utterance with its time, for debugging a miss. */
  script: { channel: number; start: number; end: number; text: string }[];
}

export interface CallOptions {
  seed: number;
  snrDb: number;
  /** Channel of the agent (0: left, as agent_location=left). */
  agentChannel?: 0 | 1;
  /** Which sensitive items the caller gives, in order (default: card, cvv, ssn, dob, account). */
  items?: GoldKind[];
  /**
   * The held-out variant (eval/spokenNumberCalls.ts TEST set): other cue wordings, lead-ins and voices, and brown
   * noise in place of pink, none of which window finding was tuned on.
   */
  heldOut?: boolean;
}

/** Small seeded generator (mulberry32): the same seed, the same call. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

const DIGIT_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
/** Words that stand for digits in a transcript (what a leak of a spoken number looks like). */
export const DIGIT_LIKE = new Set([...DIGIT_WORDS, 'oh', 'double', 'triple']);

// Varied agent requests (cues) and caller lead-ins per kind.
const CUES: Record<GoldKind, string[]> = {
  CreditCardNumber: ['can I have the card number please', 'and the long number on the front of the card', 'could you read me the card number', 'go ahead with the sixteen digit card number'],
  CVV: ['and the security code on the back', 'the three digit security code please', 'what is the code on the back of the card'],
  USSocialSecurityNumber: ["what's your social", 'can I get your social security number', 'I need the last, sorry, the full social please'],
  DateOfBirth: ['date of birth?', 'and can you confirm your date of birth', 'what is your date of birth'],
  USBankAccountNumber: ['and the account number', 'can I have the account number for the refund', 'which account number should we use'],
};
const LEAD_INS = ['sure', 'okay', 'yes', "sure it's", 'yeah', 'um okay', 'right'];
// Held out (the TEST set): written before any tuning, never added to the finder's phrase lists.
const HELD_OUT_CUES: Record<GoldKind, string[]> = {
  CreditCardNumber: ['please read out the number on your card', 'what card number would you like to use', 'okay, the card number when you are ready', 'which card are you paying with, the full number please'],
  CVV: ['and the three digits on the back of the card', 'the card verification code please', 'last thing, the security code'],
  USSocialSecurityNumber: ['for verification, your social security number please', 'and your social?', 'could I have your S S N'],
  DateOfBirth: ['and your birthday please', 'when were you born', 'can I take your date of birth'],
  USBankAccountNumber: ['what is the account number', 'the number of the account you are paying from', 'and your checking account number'],
};
const HELD_OUT_LEAD_INS = ['sure, one moment', 'okay, here it is', 'yes it is', 'let me see', 'hold on, okay'];
const CHATTER = {
  agentOpen: ['thank you for calling, how can I help you today', 'hello, you are through to billing, how can I help'],
  callerOpen: ['hi, I want to pay my bill', 'hello, I need to update my payment details', 'hi there, I would like to make a payment'],
  agentAck: ['thank you', 'great, thanks', 'okay, got it', 'perfect'],
  agentClose: ['thank you, that is all done, have a nice day', 'all set, is there anything else'],
  callerClose: ['no that is all, thanks, bye', 'great, thank you very much'],
};
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth', 'eleventh', 'twelfth', 'thirteenth', 'fourteenth', 'fifteenth', 'sixteenth', 'seventeenth', 'eighteenth', 'nineteenth', 'twentieth', 'twenty first', 'twenty second', 'twenty third', 'twenty fourth', 'twenty fifth', 'twenty sixth', 'twenty seventh', 'twenty eighth'];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const TEENS = ['ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];

function twoDigits(n: number): string {
  if (n < 10) return `oh ${DIGIT_WORDS[n]}`;
  if (n < 20) return TEENS[n - 10];
  return n % 10 === 0 ? TENS[Math.floor(n / 10)] : `${TENS[Math.floor(n / 10)]} ${DIGIT_WORDS[n % 10]}`;
}

/** A Luhn-valid 16-digit card number (a test-range prefix). */
function cardNumber(r: () => number): string {
  const digits = [4, ...Array.from({ length: 14 }, () => Math.floor(r() * 10))];
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    let d = digits[14 - i];
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  digits.push((10 - (sum % 10)) % 10);
  return digits.join('');
}

const randomDigits = (r: () => number, n: number, first = 0) => Array.from({ length: n }, (_, i) => String(i === 0 && first ? first + Math.floor(r() * (10 - first)) : Math.floor(r() * 10))).join('');

/** The digits spoken in groups, with "oh" for some zeros, and hesitations between some groups. */
function readGroups(r: () => number, digits: string, groups: number[]): string {
  const parts: string[] = [];
  let at = 0;
  for (const [i, size] of groups.entries()) {
    const group = [...digits.slice(at, at + size)].map((d) => (d === '0' && r() < 0.4 ? 'oh' : DIGIT_WORDS[Number(d)])).join(' ');
    at += size;
    parts.push(group);
    if (i < groups.length - 1 && r() < 0.35) parts.push(pick(r, ['uh', 'um']));
  }
  return parts.join(', ');
}

function item(r: () => number, kind: GoldKind): { digits: string; spoken: string } {
  switch (kind) {
    case 'CreditCardNumber': {
      const digits = cardNumber(r);
      return { digits, spoken: readGroups(r, digits, [4, 4, 4, 4]) };
    }
    case 'USSocialSecurityNumber': {
      const digits = randomDigits(r, 9, 1);
      return { digits, spoken: readGroups(r, digits, [3, 2, 4]) };
    }
    case 'CVV': {
      const digits = randomDigits(r, 3, 1);
      return { digits, spoken: readGroups(r, digits, [3]) };
    }
    case 'USBankAccountNumber': {
      const n = pick(r, [10, 12]);
      const digits = randomDigits(r, n, 1);
      return { digits, spoken: readGroups(r, digits, n === 10 ? [3, 3, 4] : [4, 4, 4]) };
    }
    case 'DateOfBirth': {
      const [m, d, y] = [Math.floor(r() * 12), Math.floor(r() * 28), 1950 + Math.floor(r() * 50)];
      const spoken = r() < 0.5 ? `${MONTHS[m]} ${ORDINALS[d]}, nineteen ${twoDigits(y % 100)}` : `${twoDigits(m + 1)}, ${twoDigits(d + 1)}, ${twoDigits(y % 100)}`;
      return { digits: `${String(m + 1).padStart(2, '0')}${String(d + 1).padStart(2, '0')}${y}`, spoken };
    }
  }
}

/** PCM of a file as 16-bit mono at CALL_RATE. */
function pcm8k(file: string): Int16Array {
  const out = execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-i', file, '-ac', '1', '-ar', String(CALL_RATE), '-f', 's16le', '-acodec', 'pcm_s16le', '-'], { maxBuffer: 1 << 30 });
  return new Int16Array(out.buffer, out.byteOffset, out.length / 2);
}

/** The clip with its leading and trailing silence cut (10 ms frames under -40 dB of the clip's peak frame). */
function trimmed(samples: Int16Array): Int16Array {
  const frame = CALL_RATE / 100;
  const energies: number[] = [];
  for (let i = 0; i + frame <= samples.length; i += frame) {
    let e = 0;
    for (let j = i; j < i + frame; j++) e += samples[j] * samples[j];
    energies.push(e / frame);
  }
  const floor = Math.max(...energies) * 1e-4;
  const first = energies.findIndex((e) => e > floor);
  const last = energies.length - 1 - [...energies].reverse().findIndex((e) => e > floor);
  return first < 0 ? samples : samples.slice(first * frame, (last + 1) * frame);
}

type Voice = { engine: 'espeak'; voice: string; speed: number } | { engine: 'festival' };

function synth(text: string, voice: Voice, file: string): Int16Array {
  if (voice.engine === 'festival') speakFestival(text, file);
  else execFileSync('espeak-ng', ['-v', voice.voice, '-s', String(voice.speed), '-w', file, text]);
  const samples = trimmed(pcm8k(file));
  fs.rmSync(file, { force: true });
  return samples;
}

/**
 * Build one call in `dir`: returns the WAV (8 kHz, stereo, 16-bit) and the gold spans. Deterministic for a seed
 * (TTS and ffmpeg's seeded noise are deterministic).
 */
export function buildCall(dir: string, options: CallOptions): SyntheticCall {
  const r = rng(options.seed);
  const agent = options.agentChannel ?? 0;
  const caller = 1 - agent;
  const held = options.heldOut === true;
  const agentVoice: Voice = { engine: 'espeak', voice: pick(r, held ? ['en-us+m1', 'en-gb-scotland', 'en-us+m5'] : ['en-us', 'en-gb', 'en-us+m3']), speed: 150 + Math.floor(r() * 30) };
  const callerVoice: Voice = r() < 0.6 ? { engine: 'festival' } : { engine: 'espeak', voice: pick(r, held ? ['en-us+f3', 'en-gb+f1', 'en-us+m2'] : ['en-us+f2', 'en-us+f4', 'en-gb-x-rp']), speed: 135 + Math.floor(r() * 30) };
  const cues = held ? HELD_OUT_CUES : CUES;
  const leadIns = held ? HELD_OUT_LEAD_INS : LEAD_INS;
  const items = options.items ?? (['CreditCardNumber', 'CVV', 'USSocialSecurityNumber', 'DateOfBirth', 'USBankAccountNumber'] as GoldKind[]);

  // Turns: [channel, text, gold kind?]; a caller's number is its own clip so its gold span is exact.
  const turns: { channel: number; text: string; kind?: GoldKind; digits?: string; gap: number }[] = [];
  const gap = (lo: number, hi: number) => lo + r() * (hi - lo);
  turns.push({ channel: agent, text: pick(r, CHATTER.agentOpen), gap: 0.5 });
  turns.push({ channel: caller, text: pick(r, CHATTER.callerOpen), gap: gap(0.4, 0.9) });
  for (const kind of items) {
    turns.push({ channel: agent, text: pick(r, cues[kind]), gap: gap(0.4, 0.9) });
    if (r() < 0.6) turns.push({ channel: caller, text: pick(r, leadIns), gap: gap(0.3, 0.8) });
    const { digits, spoken } = item(r, kind);
    turns.push({ channel: caller, text: spoken, kind, digits, gap: gap(0.15, 0.5) });
    turns.push({ channel: agent, text: pick(r, CHATTER.agentAck), gap: gap(0.4, 1.0) });
  }
  turns.push({ channel: agent, text: pick(r, CHATTER.agentClose), gap: gap(0.4, 0.9) });
  turns.push({ channel: caller, text: pick(r, CHATTER.callerClose), gap: gap(0.4, 0.9) });

  const clips = turns.map((t, i) => synth(t.text, t.channel === agent ? agentVoice : callerVoice, path.join(dir, `clip-${options.seed}-${i}.wav`)));
  const script: SyntheticCall['script'] = [];
  const gold: GoldSpan[] = [];
  let at = 0;
  turns.forEach((t, i) => {
    const start = Math.round((at + t.gap) * CALL_RATE) / CALL_RATE;
    const end = start + clips[i].length / CALL_RATE;
    script.push({ channel: t.channel, start, end, text: t.text });
    if (t.kind) gold.push({ channel: t.channel, start, end, kind: t.kind, digits: t.digits!, words: t.text.replace(/,/g, '').split(/\s+/) });
    at = end;
  });
  const frames = Math.ceil((at + 1) * CALL_RATE);
  const channels = [new Float64Array(frames), new Float64Array(frames)];
  turns.forEach((t, i) => channels[t.channel].set(clips[i], Math.round(script[i].start * CALL_RATE)));

  // Noise: ffmpeg's seeded pink noise, one independent stream per channel, scaled to snrDb under the channel's
  // speech level (RMS over its clips).
  const noiseFile = path.join(dir, `noise-${options.seed}.wav`);
  const color = held ? 'brown' : 'pink';
  ffmpeg(['-f', 'lavfi', '-i', `anoisesrc=color=${color}:sample_rate=${CALL_RATE}:amplitude=0.5:seed=${options.seed}:duration=${(frames / CALL_RATE).toFixed(3)}`,
    '-f', 'lavfi', '-i', `anoisesrc=color=${color}:sample_rate=${CALL_RATE}:amplitude=0.5:seed=${options.seed + 1000}:duration=${(frames / CALL_RATE).toFixed(3)}`,
    '-filter_complex', '[0:a][1:a]join=inputs=2:channel_layout=stereo[a]', '-map', '[a]', '-c:a', 'pcm_s16le', noiseFile]);
  const noiseRaw = execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-i', noiseFile, '-f', 's16le', '-acodec', 'pcm_s16le', '-'], { maxBuffer: 1 << 30 });
  const noise = new Int16Array(noiseRaw.buffer, noiseRaw.byteOffset, noiseRaw.length / 2);
  fs.rmSync(noiseFile, { force: true });
  const out = new Int16Array(frames * 2);
  for (let c = 0; c < 2; c++) {
    let speech = 0;
    let count = 0;
    for (const [i, t] of turns.entries()) if (t.channel === c) for (const s of clips[i]) (speech += s * s), count++;
    let noisePower = 0;
    const n = Math.min(frames, Math.floor(noise.length / 2));
    for (let i = 0; i < n; i++) noisePower += noise[i * 2 + c] ** 2;
    const gain = Math.sqrt(speech / Math.max(1, count) / 10 ** (options.snrDb / 10) / Math.max(1e-9, noisePower / n));
    for (let i = 0; i < frames; i++) {
      const v = channels[c][i] + (i < n ? noise[i * 2 + c] * gain : 0);
      out[i * 2 + c] = Math.max(-32768, Math.min(32767, Math.round(v)));
    }
  }
  const wav = path.join(dir, `call-${options.seed}.wav`);
  fs.writeFileSync(wav, wavFile(out, 2, CALL_RATE));
  return { wav, duration: frames / CALL_RATE, agentChannel: agent, gold, snrDb: options.snrDb, script };
}

function wavFile(samples: Int16Array, channels: number, rate: number): Buffer {
  const data = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
  const head = Buffer.alloc(44);
  head.write('RIFF', 0);
  head.writeUInt32LE(36 + data.length, 4);
  head.write('WAVEfmt ', 8);
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(1, 20);
  head.writeUInt16LE(channels, 22);
  head.writeUInt32LE(rate, 24);
  head.writeUInt32LE(rate * channels * 2, 28);
  head.writeUInt16LE(channels * 2, 32);
  head.writeUInt16LE(16, 34);
  head.write('data', 36);
  head.writeUInt32LE(data.length, 40);
  return Buffer.concat([head, data]);
}

export interface Interval {
  channel: number;
  start: number;
  end: number;
}

export interface Coverage {
  goldSeconds: number;
  /** Seconds of gold audio inside a redacted span. */
  coveredSeconds: number;
  recall: number;
  /** Seconds redacted outside every gold span (both channels). */
  overSeconds: number;
  redactedSeconds: number;
  byKind: Record<string, { goldSeconds: number; coveredSeconds: number }>;
}

/** Intervals of one channel, sorted and merged. */
function union(spans: readonly Interval[], channel: number): [number, number][] {
  const mine = spans.filter((s) => s.channel === channel && s.end > s.start).map((s) => [s.start, s.end] as [number, number]).sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const s of mine) {
    const last = out[out.length - 1];
    if (last && s[0] <= last[1]) last[1] = Math.max(last[1], s[1]);
    else out.push([...s]);
  }
  return out;
}

const overlap = (a: [number, number][], b: [number, number][]) => {
  let total = 0;
  for (const x of a) for (const y of b) total += Math.max(0, Math.min(x[1], y[1]) - Math.max(x[0], y[0]));
  return total;
};
const length = (a: [number, number][]) => a.reduce((n, [s, e]) => n + e - s, 0);

/** Recall of gold seconds covered by `redacted` (a job's audio spans or windows), and seconds redacted outside gold. */
export function measureCoverage(gold: readonly GoldSpan[], redacted: readonly Interval[]): Coverage {
  const byKind: Coverage['byKind'] = {};
  let goldSeconds = 0;
  let coveredSeconds = 0;
  let overSeconds = 0;
  let redactedSeconds = 0;
  for (const channel of [0, 1]) {
    const red = union(redacted, channel);
    for (const g of gold.filter((s) => s.channel === channel)) {
      const covered = overlap([[g.start, g.end]], red);
      const k = (byKind[g.kind] ??= { goldSeconds: 0, coveredSeconds: 0 });
      k.goldSeconds += g.end - g.start;
      k.coveredSeconds += covered;
    }
    const goldUnion = union(gold, channel);
    goldSeconds += length(goldUnion);
    coveredSeconds += overlap(goldUnion, red);
    redactedSeconds += length(red);
    overSeconds += length(red) - overlap(goldUnion, red);
  }
  return { goldSeconds, coveredSeconds, recall: goldSeconds > 0 ? coveredSeconds / goldSeconds : 1, overSeconds, redactedSeconds, byKind };
}
