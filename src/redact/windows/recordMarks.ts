// Client-marked windows on a post-call record (`redactionRequest.sensitiveWindows`): a record has no audio here,
// so what was said inside a window is masked in every transcript shape the record carries, by time and channel:
// - vendor transcripts (resources 3, 4): each word event overlapping a window on its utterance's channel;
// - json-v2 (processJob.transcript, transcriptRedacted): each result overlapping a window on its channel;
// - utterances (resource 11): the whole text and formattedText of an utterance overlapping a window on its
//   channel (an utterance has no word times: the whole line goes, more rather than less).
// Fail closed: a line without times, or without a channel, is taken to overlap every window.
import type { EventRecord } from '../../schema/resources/eventRecord.js';
import { type RedactionRule } from '../rules.js';
import { type AppliedWindow, windowMask } from './apply.js';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const objects = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);

/** The window (if any) that a stretch of time on a channel overlaps; unknown times or channel overlap all. */
function windowAt(windows: readonly AppliedWindow[], channel: number | undefined, start: number | undefined, end: number | undefined): AppliedWindow | undefined {
  return windows.find(
    (w) => (channel === undefined || w.channel === channel) && (start === undefined || start < w.end) && (end === undefined || end > w.start),
  );
}

/** The channels the record's transcript shapes speak on (at least 0 and 1: a call has two parties). */
export function recordChannels(record: EventRecord): number {
  let top = 1;
  const seen = (c: unknown) => {
    if (typeof c === 'number' && Number.isInteger(c) && c > top) top = c;
  };
  const r = record as Json;
  for (const u of objects(r.utterances)) seen(u.channel);
  for (const holder of [r, r.processJob]) {
    if (!isObject(holder)) continue;
    for (const shape of [holder.vendorATranscript, holder.vendorBTranscript]) {
      if (isObject(shape)) for (const u of objects(shape.utterances)) seen(isObject(u.metadata) ? u.metadata.channel : undefined);
    }
  }
  return top + 1;
}

/** Mask what the record's shapes hold inside `windows` (in place); the number of words/lines masked. */
export function maskRecordWindows(record: EventRecord, windows: readonly AppliedWindow[], rules: readonly RedactionRule[]): number {
  if (windows.length === 0) return 0;
  let masked = 0;
  const r = record as Json;
  for (const holder of [r, r.processJob]) {
    if (!isObject(holder)) continue;
    for (const shape of [holder.vendorATranscript, holder.vendorBTranscript]) {
      if (!isObject(shape)) continue;
      for (const u of objects(shape.utterances)) {
        const channel = isObject(u.metadata) ? num(u.metadata.channel) : undefined;
        for (const e of objects(u.events)) {
          const w = windowAt(windows, channel, num(e.start), num(e.end));
          if (!w) continue;
          e.word = windowMask(w.kind, rules);
          if ('wordex' in e) e.wordex = e.word;
          masked++;
        }
      }
    }
  }
  if (isObject(r.processJob)) {
    for (const shape of [r.processJob.transcript, r.processJob.transcriptRedacted]) {
      if (!isObject(shape)) continue;
      for (const result of objects(shape.results)) {
        const name = typeof result.channel === 'string' ? /^channel_(\d+)$/.exec(result.channel) : null;
        const channel = name ? Number(name[1]) - 1 : undefined;
        const w = windowAt(windows, channel, num(result.start_time), num(result.end_time));
        if (!w) continue;
        for (const alt of objects(result.alternatives)) alt.content = windowMask(w.kind, rules);
        masked++;
      }
    }
  }
  for (const u of objects(r.utterances)) {
    const w = windowAt(windows, num(u.channel), num(u.start), num(u.end));
    if (!w) continue;
    if ('text' in u) u.text = windowMask(w.kind, rules);
    if ('formattedText' in u) u.formattedText = windowMask(w.kind, rules);
    masked++;
  }
  return masked;
}
