// Every transcript shape to the one conversation (types.ts). A post-call record is read from the first field
// that holds words, in this order: the record's utterances[] (resource 11: the lines its other items point at;
// word times are then spread evenly over each line), vendorATranscript, vendorBTranscript,
// processJob.transcriptRedacted / transcript (json-v2), processJob.vendorATranscript / vendorBTranscript; a job
// from its internal transcript and the utterances its shapes were built from. Channels become speakers and roles
// with transcript/roles.ts (agentLocation, channelDiarizationLabels); a mono recording keeps the engine's
// speakers and has no roles. Pure: no I/O, input never modified.
import type { EventRecord } from '../schema/resources/eventRecord.js';
import { type RoleOptions, speakersOf } from '../transcript/roles.js';
import type { Transcript } from '../transcript/types.js';
import type { TranscriptUtterance } from '../transcript/utterances.js';
import { DEFAULT_MAX_SILENCE_SECONDS } from '../transcript/utterances.js';
import type { Conversation, ConversationSource, ConversationUtterance, ConversationWord } from './types.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const objects = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);

/** One utterance as read from a source, before speakers, roles and lines are assigned. */
interface Raw {
  channel: number;
  /** A speaker the source states (json-v2 S1/S2 on mono, resource 11 speaker). */
  speaker?: number;
  start: number;
  end: number;
  words: ConversationWord[];
  text?: string;
}

/** Seconds given to a word of an utterance that carries no times at all (record utterances without start/end). */
const ESTIMATED_WORD_SECONDS = 0.4;

function wordsOfEvents(events: unknown): ConversationWord[] {
  const out: ConversationWord[] = [];
  for (const e of objects(events)) {
    const text = typeof e.word === 'string' ? e.word.trim() : '';
    const start = num(e.start);
    const end = num(e.end);
    if (!text || start === undefined || end === undefined) continue;
    out.push({ text, start, end: Math.max(start, end), ...(num(e.confidence) !== undefined && { confidence: num(e.confidence) }) });
  }
  return out;
}

function fromVendor(transcript: unknown): Raw[] {
  if (!isObject(transcript)) return [];
  const raws: Raw[] = [];
  for (const u of objects(transcript.utterances)) {
    const words = wordsOfEvents(u.events);
    if (words.length === 0) continue;
    const meta = isObject(u.metadata) ? u.metadata : {};
    raws.push({
      channel: num(meta.channel) ?? 0,
      start: num(u.start) ?? words[0].start,
      end: num(u.end) ?? Math.max(...words.map((w) => w.end)),
      words,
    });
  }
  return raws;
}

/** json-v2 channel ('channel_1', 'channel_2', ...) to a 0-based channel index. */
function channelIndex(value: unknown): number | undefined {
  const m = typeof value === 'string' ? /(\d+)\s*$/.exec(value) : null;
  return m ? Math.max(0, Number(m[1]) - 1) : undefined;
}

/** json-v2 (resource 8): each channel's (or, on mono, each speaker's) words, cut at is_eos and at long pauses. */
function fromJsonV2(transcript: unknown): Raw[] {
  if (!isObject(transcript)) return [];
  const streams = new Map<string, { channel: number; speaker?: number; words: ConversationWord[]; cuts: Set<number> }>();
  for (const r of objects(transcript.results)) {
    const alternative = objects(r.alternatives)[0];
    const key = `${String(r.channel ?? '')}|${String(alternative?.speaker ?? '')}`;
    const stream = streams.get(key);
    if (r.type === 'punctuation') {
      if (r.is_eos === true && stream) stream.cuts.add(stream.words.length);
      continue;
    }
    const text = typeof alternative?.content === 'string' ? alternative.content.trim() : '';
    const start = num(r.start_time);
    const end = num(r.end_time);
    if (r.type !== 'word' || !text || start === undefined || end === undefined) continue;
    const speakerLabel = channelIndex(alternative?.speaker);
    const s = stream ?? { channel: channelIndex(r.channel) ?? 0, ...(r.channel === undefined && speakerLabel !== undefined && { speaker: speakerLabel }), words: [], cuts: new Set<number>() };
    streams.set(key, s);
    s.words.push({ text, start, end: Math.max(start, end), ...(num(alternative?.confidence) !== undefined && { confidence: num(alternative?.confidence) }) });
    if (r.is_eos === true) s.cuts.add(s.words.length);
  }
  const raws: Raw[] = [];
  for (const s of streams.values()) {
    let first = 0;
    const close = (to: number) => {
      if (to <= first) return;
      const words = s.words.slice(first, to);
      raws.push({ channel: s.channel, speaker: s.speaker, start: words[0].start, end: Math.max(...words.map((w) => w.end)), words });
      first = to;
    };
    for (let i = 1; i < s.words.length; i++) {
      if (s.cuts.has(i) || s.words[i].start - s.words[i - 1].end > DEFAULT_MAX_SILENCE_SECONDS + 1e-9) close(i);
    }
    close(s.words.length);
  }
  return raws;
}

/** Resource 11 utterances: text with times but no words; the words' times are spread evenly (estimated). */
function fromUtterances(utterances: unknown): Raw[] {
  const raws: Raw[] = [];
  let clock = 0;
  for (const u of objects(utterances)) {
    const text = typeof u.text === 'string' ? u.text.trim() : '';
    // An utterance without text stays (its line number is its index, as resource 11 numbers lines); it has no words.
    const tokens = text.split(/\s+/).filter(Boolean);
    const start = num(u.start) ?? clock;
    const end = Math.max(start, num(u.end) ?? start + tokens.length * ESTIMATED_WORD_SECONDS);
    const step = tokens.length > 0 ? (end - start) / tokens.length : 0;
    const words = tokens.map((t, i) => ({ text: t, start: start + i * step, end: start + (i + 1) * step }));
    clock = end;
    raws.push({ channel: num(u.channel) ?? num(u.speaker) ?? 0, speaker: num(u.speaker), start, end, words, text });
  }
  return raws;
}

/**
 * Speakers, roles and lines. Channels split by the source give roles through transcript/roles.ts when there are
 * two or more; resource 11 speakers are roles already (0 agent, 1 caller); one channel keeps the engine's speakers.
 */
function assemble(raws: Raw[], source: ConversationSource, roles: RoleOptions, extra: Pick<Conversation, 'audioSeconds' | 'estimatedWordTimes'>): Conversation {
  const channels = [...new Set(raws.map((r) => r.channel))];
  const byRoleSpeakers = source === 'utterances' && raws.some((r) => r.speaker !== undefined);
  const speakerIds = new Set(raws.map((r) => r.speaker ?? 0));
  const stereo = byRoleSpeakers ? speakerIds.size > 1 : channels.length > 1;
  const speakers = speakersOf(channels, roles);
  // The record's own utterances keep their order: their index is the line every other item points at.
  const sorted = source === 'utterances' ? raws : [...raws].sort((a, b) => a.start - b.start || a.channel - b.channel || a.end - b.end);
  const utterances: ConversationUtterance[] = sorted.map((r, line) => {
    let speaker: number;
    let role: ConversationUtterance['role'];
    if (byRoleSpeakers) {
      speaker = r.speaker ?? 0;
      role = stereo ? (speaker === 0 ? 'agent' : 'caller') : undefined;
    } else if (stereo) {
      const s = speakers.get(r.channel)!;
      speaker = s.speaker;
      role = s.role;
    } else {
      speaker = r.speaker ?? 0;
    }
    return {
      line,
      channel: r.channel,
      speaker,
      ...(role && { role }),
      start: r.start,
      end: r.end,
      text: r.text ?? r.words.map((w) => w.text).join(' '),
      words: r.words,
    };
  });
  return { source, utterances, stereo, ...extra };
}

/** Role options of a record: its campaign's agentLocation / direction / channelDiarizationLabels, else the project's agent_location. */
export function recordRoleOptions(record: EventRecord, projectAgentLocation?: string): RoleOptions {
  const campaign = record.campaign ?? {};
  return {
    agentLocation: (campaign.agentLocation as string | undefined) ?? projectAgentLocation,
    direction: (campaign.direction as string | undefined) ?? (record.processJob?.direction as string | undefined),
    channelLabels: campaign.channelDiarizationLabels as string | undefined,
  };
}

/** The conversation a post-call record carries, or undefined when none of its fields holds any words. */
export function conversationOfRecord(record: EventRecord, roles: RoleOptions = {}): Conversation | undefined {
  const job = record.processJob;
  const candidates: [ConversationSource, () => Raw[], number | undefined][] = [
    // The record's own lines first when it sends them: every line number of the record refers to them.
    ['utterances', () => fromUtterances(record.utterances), undefined],
    ['vendorATranscript', () => fromVendor(record.vendorATranscript), num(record.vendorATranscript?.audiosecs)],
    ['vendorBTranscript', () => fromVendor(record.vendorBTranscript), num(record.vendorBTranscript?.audiosecs)],
    ['processJob.transcript', () => fromJsonV2(job?.transcriptRedacted ?? job?.transcript), num(job?.duration) ?? num((job?.transcript as Json | undefined)?.job && ((job?.transcript as Json).job as Json).duration)],
    ['processJob.vendorATranscript', () => fromVendor(job?.vendorATranscript), num(job?.vendorATranscript?.audiosecs)],
    ['processJob.vendorBTranscript', () => fromVendor(job?.vendorBTranscript), num(job?.vendorBTranscript?.audiosecs)],
  ];
  for (const [source, read, audioSeconds] of candidates) {
    const raws = read();
    if (!raws.some((r) => r.words.length > 0)) continue;
    return assemble(raws, source, roles, { ...(audioSeconds !== undefined && { audioSeconds }), estimatedWordTimes: source === 'utterances' });
  }
  return undefined;
}

/** The conversation of a finished job: its transcript's words, cut into the utterances its shapes were built from. */
export function conversationOfTranscript(transcript: Transcript, utterances: readonly TranscriptUtterance[], roles: RoleOptions = {}): Conversation {
  const raws: Raw[] = utterances.map((u) => ({
    channel: u.channel,
    start: u.start,
    end: u.end,
    words: u.words.map((w) => ({ text: w.word, start: w.start, end: w.end, confidence: w.confidence })),
  }));
  return assemble(raws, 'job', roles, { audioSeconds: transcript.audioSeconds, estimatedWordTimes: transcript.estimatedTimes === true });
}

/** A conversation from utterances already timed (real-time messages): used by the live conversation's end. */
export function conversationOfLines(lines: readonly Raw[], roles: RoleOptions = {}): Conversation {
  return assemble([...lines], 'realTime', roles, { estimatedWordTimes: lines.some((l) => l.words.length === 0) });
}

export type { Raw as RawUtterance };
