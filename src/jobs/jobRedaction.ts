// A job's redaction runs the effective policy resolved at submit (redact/policy.ts, stored with the job's
// parameters) together with what its project requires now, masked as the project's rules say; the policy is
// recorded in the job's redaction record. Nothing asked or required: no redaction.
import path from 'node:path';
import { detectDtmf } from '../audio/dtmf.js';
import { type AudioSpan, decodeForRedaction, type RedactionPcm, writeRedacted } from '../audio/redactAudio.js';
import type { ProjectConfigs } from '../cache/projectConfigs.js';
import { keypadEntriesOffLoop, redactTranscriptOffLoop } from '../redact/offload/index.js';
import type { RedactedSpan } from '../redact/redactTranscript.js';
import { jobPolicy, policyRecord, policyRules, redacts } from '../redact/policy.js';
import type { JobRow } from '../store/tables.js';
import type { Transcript, Word } from '../transcript/types.js';
import type { TranscribeParams } from './request.js';
import { checkRedactedCopy, keepsOriginal } from './originalAudio.js';

export interface RedactorOptions {
  projects: ProjectConfigs;
  hashKey: string;
  dataDir: string;
  /** Engine parameters in force for a project (scrubmindist). */
  engineParams: (sid?: string) => Promise<Record<string, unknown>>;
}

/** Seconds added around every audio span (words and keypad tones alike). */
const AUDIO_PADDING = 0.05;
/** Keypad tones of one channel closer than this (s) are one keypad entry (one span). */
const KEYPAD_ENTRY_GAP = 1;
/** The lowest sample rate the keypad-tone detector works at (Hz). */
const MIN_DTMF_RATE = 4000;
/** What stands in the text for words the recognizer made of keypad tones. */
export const DTMF_MASK = '[DTMF]';

/**
 * Keypad entries per channel: DTMF tones found on the decoded recording, grouped when closer than
 * KEYPAD_ENTRY_GAP. Only times leave this function: the keys pressed are dropped here.
 */
export function keypadEntries(pcm: Pick<RedactionPcm, 'samples' | 'sampleRate' | 'channels'>): AudioSpan[] {
  const entries: AudioSpan[] = [];
  // Below 4 kHz the upper keypad tones (up to 1633 Hz) cannot be told apart: such a recording holds no keys.
  if (pcm.sampleRate < MIN_DTMF_RATE) return entries;
  for (let channel = 0; channel < pcm.channels; channel++) {
    let open: AudioSpan | undefined;
    for (const tone of detectDtmf(pcm.samples, pcm.sampleRate, { stride: pcm.channels, offset: channel })) {
      if (open && tone.start - open.end < KEYPAD_ENTRY_GAP) open.end = Math.max(open.end, tone.end);
      else entries.push((open = { channel, start: tone.start, end: tone.end }));
    }
  }
  return entries.sort((a, b) => a.start - b.start || a.channel - b.channel);
}

/**
 * Words that overlap a keypad entry (padded) on their channel are what the recognizer made of the tones (or
 * spoke over them): each run of them becomes one DTMF_MASK word, and the entry's span grows to cover them.
 */
export function maskKeypadWords(transcript: Transcript, entries: readonly AudioSpan[], padding = AUDIO_PADDING): { transcript: Transcript; spans: RedactedSpan[] } {
  const spans: RedactedSpan[] = entries.map((e) => ({ channel: e.channel, kind: 'DTMF', start: e.start, end: e.end, replacement: '', confidence: 1 }));
  if (spans.length === 0) return { transcript, spans };
  const channels = transcript.channels.map((channel) => {
    // Against the tones' own times: a span grown over a word must not reach on to the next word, and the next.
    const mine = spans.filter((s) => s.channel === channel.channel).map((span) => ({ span, start: span.start, end: span.end }));
    if (mine.length === 0) return channel;
    const hit = (w: Word) => mine.find((s) => w.start < s.end + padding && w.end > s.start - padding)?.span;
    const words: Word[] = [];
    let run: { word: Word; span: RedactedSpan } | undefined;
    for (const w of channel.words) {
      const span = hit(w);
      if (!span) {
        run = undefined;
        words.push(w);
        continue;
      }
      if (run) {
        run.word.end = Math.max(run.word.end, w.end);
      } else {
        run = { word: { word: DTMF_MASK, start: w.start, end: w.end, confidence: 1 }, span };
        words.push(run.word);
      }
      span.start = Math.min(span.start, w.start);
      span.end = Math.max(span.end, w.end);
      span.replacement = DTMF_MASK;
    }
    return { ...channel, words };
  });
  return { transcript: { ...transcript, channels }, spans };
}

/** A redacted span shorter than this (s) has no real time: the engine could not time its words. */
const MIN_TIMED_SECONDS = 0.1;
/** How far such a span is widened on each side (s): redacted wider rather than not at all. */
const UNTIMED_WIDENING = 0.3;

/**
 * Spans whose words came without a usable time (zero or near-zero length: a word the aligner could only
 * place, an engine that gave none) are widened in place so the audio loses more rather than keeps the value;
 * the count is reported on the job. Keypad spans (kind DTMF) are timed on the recording itself: a single short
 * key press is shorter than MIN_TIMED_SECONDS and is left as found.
 */
export function widenUntimed(spans: RedactedSpan[], durationSeconds: number): number {
  let widened = 0;
  for (const span of spans) {
    if (span.kind === 'DTMF' || span.end - span.start >= MIN_TIMED_SECONDS) continue;
    span.start = Math.max(0, span.start - UNTIMED_WIDENING);
    span.end = Math.min(durationSeconds, span.end + UNTIMED_WIDENING);
    widened++;
  }
  return widened;
}

/**
 * `scrubaudio` also redacts the recording: each text span's time, on the channel that spoke it, becomes a
 * tone in a copy kept beside the original. It implies text redaction of the same kinds: a transcript must
 * never show what the audio hides. Keypad tones (DTMF) are found on the recording itself, whatever the
 * recognizer heard, and redacted too (kind `DTMF`, by time only); words over them are masked as DTMF_MASK.
 */
/** File names of redacted copies in a job's folder (`redacted-<run id>.<ext>`). */
export const REDACTED_COPY_PREFIX = 'redacted-';

export function jobRedactor(options: RedactorOptions) {
  return async (job: JobRow, params: TranscribeParams, transcript: Transcript, signal?: AbortSignal, runId?: string) => {
    const project = params.sid ? await options.projects.current(params.sid) : undefined;
    const policy = jobPolicy(params, project);
    if (!redacts(policy)) return undefined;
    const scrubaudio = policy.audio;
    const rules = policyRules(policy, project?.config);
    // The recording is decoded once, at its own rate: keypad tones are found on it, then it is edited.
    const pcm = scrubaudio && job.audio_path ? await decodeForRedaction(path.join(options.dataDir, job.audio_path), { signal }) : undefined;
    const keypad = pcm ? maskKeypadWords(transcript, await keypadEntriesOffLoop(pcm)) : { transcript, spans: [] };
    signal?.throwIfAborted();
    const result = await redactTranscriptOffLoop(keypad.transcript, rules, options.hashKey);
    signal?.throwIfAborted();
    const spans = [...result.spans, ...keypad.spans].sort((a, b) => a.start - b.start || a.channel - b.channel);
    const record: Record<string, unknown> = { policy: policyRecord(policy), rules: rules.map((r) => ({ kind: r.kind, maskType: r.maskType })), spans };
    if (pcm && job.audio_path) {
      record.untimedSpans = widenUntimed(spans, pcm.samples.length / pcm.channels / pcm.sampleRate);
      const engine = await options.engineParams(params.sid);
      // Named by the run: a run that lost its job (another process took it over before this one noticed) writes
      // its own file, never over the copy of the run that holds the job; the worker removes whichever is not kept.
      const relative = path.join(path.dirname(job.audio_path), `${REDACTED_COPY_PREFIX}${runId ?? 'copy'}${path.extname(job.audio_path) || '.wav'}`);
      const merged = await writeRedacted(pcm, path.join(options.dataDir, relative), spans, {
        minDistance: Number(params.scrubmindist ?? engine.scrubmindist ?? 0.3),
        padding: AUDIO_PADDING,
        mode: params.scrubsound ?? 'tone',
      });
      // The copy stands in for the original only once checked; the worker then deletes the original.
      await checkRedactedCopy(path.join(options.dataDir, relative), pcm);
      const keepOriginal = await keepsOriginal(params, options.projects);
      record.audio = { path: relative, spans: merged.flat().sort((a, b) => a.start - b.start), keepOriginal };
      if (!keepOriginal) return { transcript: result.transcript, record, replaceAudio: relative };
    }
    return { transcript: result.transcript, record };
  };
}
