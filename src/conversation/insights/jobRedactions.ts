// Insights that redact, on an audio or text job (issue 18: "the redaction flags ... audio too, for jobs"). They
// run in the job's redaction step on the words as recognized (before any mask, as post-call runs insights before
// its further masking), and each redaction they ask for becomes a sensitive window on its channel (source
// `insight`, kind `Insight`, mask `[INSIGHT]`): its words masked in every transcript shape, and its audio
// silenced or toned when the job edits audio (`redactAudio` asks for that). What each insight found is kept
// in the job's redaction record — times and speakers, never words — for the job's analysis, which reads the
// redacted transcript, where the masked phrase can no longer be found.
import type { Insight } from '../../schema/resources/insight.js';
import type { SensitiveWindow } from '../../redact/windows/types.js';
import type { RoleOptions } from '../../transcript/roles.js';
import { utterancesFor } from '../../transcript/index.js';
import type { Transcript } from '../../transcript/types.js';
import { conversationOfTranscript } from '../normalize.js';
import type { Conversation } from '../types.js';
import { compileInsights } from './definitions.js';
import { MatchIndex } from './evaluate.js';
import { type InsightRedaction, runInsights } from './run.js';

/** The kind of an insight's window: masked as `[INSIGHT]`, as post-call masks an insight's phrase. */
export const INSIGHT_KIND = 'Insight';

/** Whether an insight asks for any redaction. */
export function redactsSomething(i: Insight): boolean {
  return !!(
    i.redactLine || i.redactText || i.redactAudio || i.redactLineResponse || i.redactTextResponse || i.redactAudioResponse ||
    (i.redactBefore ?? 0) > 0 || (i.redactAfter ?? 0) > 0 || (i.redactBeforeResponse ?? 0) > 0 || (i.redactAfterResponse ?? 0) > 0
  );
}

/** Where an insight was found: times and speaker only (its words are what it may have masked). */
export interface FoundAt {
  start: number;
  end: number;
  speaker: number;
  response?: { start: number; end: number; speaker: number };
}

/** What one redacting insight found on a job, kept in its redaction record. */
export interface JobInsightOutcome {
  id: string;
  name?: string;
  matched: boolean;
  violation: boolean;
  alert: boolean;
  lines: FoundAt[];
}

export interface JobInsightRedaction {
  windows: SensitiveWindow[];
  /** Some insight asked for its audio to go (redactAudio): the job edits its recording. */
  audio: boolean;
  outcomes: JobInsightOutcome[];
}

/** The window of one redaction: its words, the whole line, or N words before/after them, on its channel. */
function windowOf(conversation: Conversation, x: InsightRedaction): SensitiveWindow | undefined {
  const u = conversation.utterances[x.line];
  if (!u || !(x.text || x.audio)) return undefined;
  if (x.redactLine) return { channel: x.channel, start: u.start, end: u.end, kind: INSIGHT_KIND, source: 'insight' };
  const inside = u.words.flatMap((w, i) => (w.end > x.start - 1e-6 && w.start < x.end + 1e-6 ? [i] : []));
  if (inside.length === 0) return { channel: x.channel, start: x.start, end: x.end, kind: INSIGHT_KIND, source: 'insight' };
  const first = Math.max(0, inside[0] - x.before);
  const last = Math.min(u.words.length - 1, inside[inside.length - 1] + x.after);
  return { channel: x.channel, start: u.words[first].start, end: u.words[last].end, kind: INSIGHT_KIND, source: 'insight' };
}

/** The named redacting insights run on a job's recognized transcript: their windows and what they found. */
export function jobInsightRedaction(transcript: Transcript, insights: readonly Insight[], options: { roles: RoleOptions; direction?: string }): JobInsightRedaction {
  if (insights.length === 0) return { windows: [], audio: false, outcomes: [] };
  const conversation = conversationOfTranscript(transcript, utterancesFor(transcript), options.roles);
  const results = runInsights(compileInsights([...insights], '/insights'), conversation, { direction: options.direction }, new MatchIndex(conversation));
  const windows: SensitiveWindow[] = [];
  let audio = false;
  const outcomes: JobInsightOutcome[] = [];
  for (const r of results) {
    for (const x of r.redactions) {
      const w = windowOf(conversation, x);
      if (w) windows.push(w);
      audio ||= x.audio;
    }
    const ins = r.compiled.insight;
    if (!r.applies) continue;
    outcomes.push({
      id: ins.id ?? r.compiled.origin,
      ...(ins.name && { name: ins.name }),
      matched: r.matched,
      violation: r.violation,
      alert: r.alert,
      lines: r.lines.map((l) => ({
        start: l.hit.start,
        end: l.hit.end,
        speaker: l.hit.speaker,
        ...(l.response && { response: { start: l.response.start, end: l.response.end, speaker: l.response.speaker } }),
      })),
    });
  }
  return { windows, audio, outcomes };
}
