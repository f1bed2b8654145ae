// SRT and WebVTT. Cues follow utterances and are ordered by start time across channels (cues of the two
// channels may overlap in time, which both formats allow); an utterance longer than maxCueSeconds or than maxLines lines of maxLineChars is
// split between tokens into several cues. A cue starts at its first word's start (rounded down to the
// millisecond) and ends at its last word's end (rounded up), so it always covers its words. Text is the
// formatted text (numtrans/punctuate as asked); a number phrase is never split across cues.
// SRT: "1\n00:00:01,250 --> 00:00:03,900\nAgent: text\n\n" (speaker prefix on 2+ channels unless told otherwise).
// VTT: "WEBVTT\n\n1\n00:00:01.250 --> 00:00:03.900\n<v Agent>text\n\n" (voice span on 2+ channels; & < > escaped).
import { formatWords } from '../format.js';
import type { RenderMeta } from '../meta.js';
import { speakersOf, type ChannelSpeaker } from '../roles.js';
import type { Transcript } from '../types.js';
import type { TranscriptUtterance } from '../utterances.js';

export interface CueOptions {
  /** Longest cue in seconds (unless one token alone is longer). Default 7. */
  maxCueSeconds?: number;
  /** Characters per line. Default 42. */
  maxLineChars?: number;
  /** Lines per cue. Default 2. */
  maxLines?: number;
}

export interface Cue {
  /** 1-based. */
  index: number;
  /** Seconds, rounded to the millisecond so as to cover the words. */
  start: number;
  end: number;
  channel: number;
  /** Row of the utterance the cue belongs to. */
  row: number;
  speaker?: ChannelSpeaker;
  /** Whether the speaker is shown (SRT prefix, VTT voice). */
  showSpeaker: boolean;
  lines: string[];
  /** Indices into the channel's words of the words the cue shows. */
  wordIndices: number[];
}

/** Greedy word wrap; a word longer than the width gets a line of its own. */
export function wrapText(text: string, width: number, firstLineReserve = 0): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ').filter(Boolean)) {
    const room = width - (lines.length === 0 ? firstLineReserve : 0);
    if (line === '') line = word;
    else if (line.length + 1 + word.length <= room) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

const floorMs = (s: number) => Math.floor(s * 1000 + 1e-6) / 1000;
const ceilMs = (s: number) => Math.ceil(s * 1000 - 1e-6) / 1000;

export function buildCues(
  transcript: Pick<Transcript, 'channels'>,
  utterances: readonly TranscriptUtterance[],
  meta: RenderMeta = {},
  options: CueOptions = {},
): Cue[] {
  const maxSeconds = options.maxCueSeconds ?? 7;
  const width = options.maxLineChars ?? 42;
  const maxLines = options.maxLines ?? 2;
  const speakers = speakersOf(transcript.channels.map((ch) => ch.channel), meta);
  const showSpeaker = meta.speakerPrefix ?? transcript.channels.length > 1;
  const cues: Cue[] = [];

  for (const u of utterances) {
    const speaker = speakers.get(u.channel);
    const reserve = showSpeaker && speaker ? speaker.label.length + 2 : 0;
    const tokens = formatWords(u.words, { numtrans: meta.numtrans, punctuate: meta.punctuate }).tokens
      .map((t) => ({
        text: t.text.replace(/\s+/g, ' ').trim(),
        indices: t.wordIndices,
        start: Math.min(...t.wordIndices.map((i) => u.words[i].start)),
        end: Math.max(...t.wordIndices.map((i) => u.words[i].end)),
      }))
      .filter((t) => t.text !== '');
    let current: typeof tokens = [];
    const flush = () => {
      if (current.length === 0) return;
      const start = floorMs(Math.min(...current.map((t) => t.start)));
      const end = Math.max(ceilMs(Math.max(...current.map((t) => t.end))), start + 0.001);
      cues.push({
        index: cues.length + 1,
        start,
        end: Math.round(end * 1000) / 1000,
        channel: u.channel,
        row: u.row,
        speaker,
        showSpeaker: showSpeaker && speaker !== undefined,
        lines: wrapText(current.map((t) => t.text).join(' '), width, reserve),
        wordIndices: current.flatMap((t) => t.indices.map((i) => u.wordStart + i)),
      });
      current = [];
    };
    for (const token of tokens) {
      if (current.length > 0) {
        const candidate = [...current, token];
        const tooLong = token.end - current[0].start > maxSeconds;
        const tooWide = wrapText(candidate.map((t) => t.text).join(' '), width, reserve).length > maxLines;
        if (tooLong || tooWide) flush();
      }
      current.push(token);
    }
    flush();
  }
  // Cues in time order across channels (players of WebVTT require it; SRT readers expect it): by start, then
  // channel, then the order they were made in; numbered again in that order.
  return cues
    .map((cue, order) => ({ cue, order }))
    .sort((a, b) => a.cue.start - b.cue.start || a.cue.channel - b.cue.channel || a.order - b.order)
    .map(({ cue }, i) => ({ ...cue, index: i + 1 }));
}

/** HH:MM:SS,mmm (SRT) or HH:MM:SS.mmm (VTT); hours grow past two digits when needed. */
export function formatTimestamp(seconds: number, separator: ',' | '.'): string {
  const total = Math.max(0, Math.round(seconds * 1000));
  const ms = total % 1000;
  const s = Math.floor(total / 1000) % 60;
  const m = Math.floor(total / 60_000) % 60;
  const h = Math.floor(total / 3_600_000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}${separator}${pad(ms, 3)}`;
}

export function cuesToSrt(cues: readonly Cue[]): string {
  return cues
    .map((cue, i) => {
      const lines = [...cue.lines];
      if (cue.showSpeaker && cue.speaker && lines.length > 0) lines[0] = `${cue.speaker.label}: ${lines[0]}`;
      return `${i + 1}\n${formatTimestamp(cue.start, ',')} --> ${formatTimestamp(cue.end, ',')}\n${lines.join('\n')}\n\n`;
    })
    .join('');
}

const escapeVtt = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function cuesToVtt(cues: readonly Cue[]): string {
  const body = cues
    .map((cue, i) => {
      const lines = cue.lines.map(escapeVtt);
      if (cue.showSpeaker && cue.speaker && lines.length > 0) lines[0] = `<v ${cue.speaker.label}>${lines[0]}`;
      return `${i + 1}\n${formatTimestamp(cue.start, '.')} --> ${formatTimestamp(cue.end, '.')}\n${lines.join('\n')}\n\n`;
    })
    .join('');
  return `WEBVTT\n\n${body}`;
}

export function toSrt(transcript: Pick<Transcript, 'channels'>, utterances: readonly TranscriptUtterance[], meta: RenderMeta = {}, options: CueOptions = {}): string {
  return cuesToSrt(buildCues(transcript, utterances, meta, options));
}

export function toVtt(transcript: Pick<Transcript, 'channels'>, utterances: readonly TranscriptUtterance[], meta: RenderMeta = {}, options: CueOptions = {}): string {
  return cuesToVtt(buildCues(transcript, utterances, meta, options));
}
