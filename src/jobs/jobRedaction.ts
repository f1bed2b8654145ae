// A job's redaction runs the effective policy resolved at submit (redact/policy.ts, stored with the job's
// parameters) together with what its project requires now, masked as the project's rules say; the policy is
// recorded in the job's redaction record. Nothing asked or required: no redaction.
import fs from 'node:fs';
import path from 'node:path';
import { type AudioSpan, decodeForRedaction, writeRedacted } from '../audio/redactAudio.js';
import type { ProjectConfigs } from '../cache/projectConfigs.js';
import { jobInsightRedactionOffLoop, keypadEntriesOffLoop, redactTranscriptOffLoop } from '../workers/index.js';
import type { RedactedSpan } from '../redact/redactTranscript.js';
import { jobPolicy, policyRecord, policyRules, type ProjectInForce, redacts } from '../redact/policy.js';
import type { EntityKind } from '../redact/entityKinds.js';
import { type AppliedWindow, applyWindows, clipWindows } from '../redact/windows/apply.js';
import { markWindows } from '../redact/windows/marks.js';
import { modeWindows } from '../redact/windows/modes.js';
import { redactsNumbers } from '../redact/numberKinds.js';
import { mutedSpeechReport } from '../redact/windows/mutedSpeech.js';
import { windowsReport } from '../redact/windows/report.js';
import type { SensitiveWindow } from '../redact/windows/types.js';
import { agentChannel } from '../transcript/roles.js';
import { type BlobStore, blobKey, keyFolder, tempFile } from '../store/blobs/index.js';
import type { JobRow } from '../store/tables.js';
import type { Transcript, Word } from '../transcript/types.js';
import type { TranscribeParams } from './request.js';
import { checkRedactedCopy, keepsOriginal } from './originalAudio.js';
import { DEFAULT_RECHECK_ROUNDS, type RecheckRecognizer, recheckAndRepair } from './copyRecheck.js';
import { namedInsights } from './jobAnalysis.js';
import { redactsSomething } from '../conversation/insights/jobRedactions.js';

/** Finds sensitive windows (cue phrases, number-shaped speech) in the recognized, unredacted transcript. */
export type JobWindowFinder = (
  transcript: Transcript,
  kinds: readonly EntityKind[],
  project: ProjectInForce | undefined,
  params: TranscribeParams,
) => SensitiveWindow[] | Promise<SensitiveWindow[]>;

export type { RecheckRecognizer } from './copyRecheck.js';

export interface RedactorOptions {
  projects: ProjectConfigs;
  hashKey: string;
  /** Where the redacted copy is kept, beside the job's recording. */
  blobs: BlobStore;
  /** This machine's folder for the copy while it is written and checked. */
  tempDir: string;
  /** Engine parameters in force for a project (scrubmindist). */
  engineParams: (sid?: string) => Promise<Record<string, unknown>>;
  /** Sensitive windows found in the recognized words (cue phrases, number-shaped speech); none when absent. */
  findWindows?: JobWindowFinder;
  /**
   * Recognizes the redacted copy again: what still sounds like a number is redacted too and the copy checked
   * again (jobs/copyRecheck.ts); a copy that still says one after `recheckRounds` widenings fails the job's
   * redaction (recheck in the record). Absent: no re-recognition check (the record says so).
   */
  recheck?: RecheckRecognizer;
  /** Widenings the re-recognition check may make (SCRUBLINE_RECHECK_ROUNDS); DEFAULT_RECHECK_ROUNDS when absent. */
  recheckRounds?: number;
}

/**
 * A redaction that could not be done as asked: the job fails (redactionStatus failed), never tried again.
 * `redactionRecord`: what the redaction did before it gave up (kinds and times, never a value), kept on the job.
 */
export class WindowRedactionError extends Error {
  readonly permanent = true;
  constructor(message: string, readonly redactionRecord?: Record<string, unknown>) {
    super(message);
  }
}

/** Seconds added around every audio span (words and keypad tones alike). */
const AUDIO_PADDING = 0.05;
/** What stands in the text for words the recognizer made of keypad tones. */
export const DTMF_MASK = '[DTMF]';

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
  return async (job: JobRow, params: TranscribeParams, transcript: Transcript, signal?: AbortSignal, runId?: string, audioFile?: string) => {
    const project = params.sid ? await options.projects.current(params.sid) : undefined;
    const policy = jobPolicy(params, project);
    const marks = markWindows(params.sensitiveWindows);
    // The job's insights that redact, run on the words as recognized (their phrase is what they mask).
    const redactingInsights = namedInsights(params, project?.config).filter(redactsSomething);
    const byInsights = await jobInsightRedactionOffLoop(transcript, redactingInsights, {
      roles: { agentLocation: params.agent_location ?? project?.config.agent_location },
      direction: params.direction,
    });
    // Marked windows and redacting insights are redaction asked for even with no kinds: their text and (with
    // audio) their audio go.
    if (!redacts(policy) && marks.length === 0 && redactingInsights.length === 0) return undefined;
    const scrubaudio = policy.audio || marks.length > 0 || byInsights.audio;
    const rules = policyRules(policy, project?.config);
    // The recording is decoded once, at its own rate: keypad tones are found on it, then it is edited.
    // The recording as a file on this machine (the worker staged it for the run).
    if (scrubaudio && job.audio_path && !audioFile) throw new Error('the recording was not staged for audio redaction');
    const pcm = scrubaudio && audioFile ? await decodeForRedaction(audioFile, { signal }) : undefined;
    const channels = pcm?.channels ?? transcript.channels.length;
    const duration = pcm ? pcm.frames / pcm.sampleRate : transcript.audioSeconds;
    const missing = marks.find((m) => m.channel >= channels);
    if (missing) throw new WindowRedactionError(`a sensitive window is marked on channel ${missing.channel}; the recording has ${channels} channel(s)`);
    const keypad = pcm ? maskKeypadWords(transcript, await keypadEntriesOffLoop(pcm)) : { transcript, spans: [] };
    signal?.throwIfAborted();
    // Cue and number windows are found on the words as recognized (a cue must be read before it is masked).
    const found = (await options.findWindows?.(transcript, policy.kinds, project, params)) ?? [];
    signal?.throwIfAborted();
    const result = await redactTranscriptOffLoop(keypad.transcript, rules, options.hashKey);
    signal?.throwIfAborted();
    const keypadWindows: AppliedWindow[] = keypad.spans.map((k) => ({ channel: k.channel, start: k.start, end: k.end, kind: 'DTMF', source: 'keypad' }));
    const asked: AppliedWindow[] = clipWindows([...found, ...marks, ...byInsights.windows], duration);
    const agent = agentChannel({ agentLocation: params.agent_location ?? project?.config.agent_location });
    const mode = project?.config.windowMode ?? 'windows';
    const added = modeWindows([...asked, ...keypadWindows], { mode, channels, agentChannel: agent, duration });
    // Windows only add: their spans join the core's and the keypad's, whose words are already masked.
    const applied = applyWindows(result.transcript, [...asked, ...added], rules);
    let redacted = applied.transcript;
    const spans = [...result.spans, ...keypad.spans, ...applied.spans].sort((a, b) => a.start - b.start || a.channel - b.channel);
    const entityWindows: AppliedWindow[] = result.spans.map((e) => ({ channel: e.channel, start: e.start, end: e.end, kind: e.kind, source: 'entity' }));
    const windows = [...entityWindows, ...keypadWindows, ...asked, ...added];
    const record: Record<string, unknown> = {
      policy: policyRecord(policy),
      rules: rules.map((r) => ({ kind: r.kind, maskType: r.maskType })),
      spans,
      windows: windowsReport(windows, channels, duration, mode),
      ...(redactingInsights.length > 0 && { insights: byInsights.outcomes }),
    };
    if (pcm && job.audio_path) {
      record.untimedSpans = widenUntimed(spans, duration);
      const engine = await options.engineParams(params.sid);
      // Named by the run: a run that lost its job (another process took it over before this one noticed) writes
      // its own file, never over the copy of the run that holds the job; the worker removes whichever is not kept.
      const ext = path.extname(job.audio_path) || '.wav';
      const relative = blobKey(keyFolder(job.audio_path), `${REDACTED_COPY_PREFIX}${runId ?? 'copy'}${ext}`);
      // Written and checked on this machine, then stored beside the recording (a rename for a local store).
      const copy = tempFile(options.tempDir, ext);
      const audioOptions = { minDistance: Number(params.scrubmindist ?? engine.scrubmindist ?? 0.3), padding: AUDIO_PADDING, mode: params.scrubsound ?? 'tone' };
      let merged: Awaited<ReturnType<typeof writeRedacted>>;
      try {
        merged = await writeRedacted(pcm, copy, spans, audioOptions);
        // The copy stands in for the original only once checked; the worker then deletes the original.
        await checkRedactedCopy(copy, pcm);
        const checked = await recheckAndRepair({
          recheck: options.recheck,
          rounds: options.recheckRounds ?? DEFAULT_RECHECK_ROUNDS,
          copy,
          model: transcript.model,
          windows,
          numbers: redactsNumbers(policy.kinds),
          transcript: redacted,
          rules,
          duration,
          signal,
          // Redaction only grows: the widened stretches join every span so far, and the copy is written again.
          rewrite: async (added) => {
            spans.push(...added);
            spans.sort((a, b) => a.start - b.start || a.channel - b.channel);
            merged = await writeRedacted(pcm, copy, spans, audioOptions);
            await checkRedactedCopy(copy, pcm);
          },
        });
        redacted = checked.transcript;
        record.recheck = checked.record;
        record.report = mutedSpeechReport(transcript, merged.flat(), channels, agent);
        if (!checked.converged) {
          const rounds = checked.record.checked ? checked.record.rounds.length - 1 : 0;
          throw new WindowRedactionError(
            `the redacted audio was recognized again and still says a number (digit words or number words) after ${rounds} widening round(s); the redaction is not accepted (see the job's redaction.recheck)`,
            record,
          );
        }
        await options.blobs.putFile(relative, copy, { move: true });
      } finally {
        fs.rmSync(copy, { force: true });
      }
      const keepOriginal = await keepsOriginal(params, options.projects);
      record.audio = { path: relative, spans: merged.flat().sort((a, b) => a.start - b.start), keepOriginal };
      if (!keepOriginal) return { transcript: redacted, record, replaceAudio: relative };
    }
    return { transcript: redacted, record };
  };
}
