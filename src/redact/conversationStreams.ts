// The transcript shapes of a record, redacted as conversations (see streams.ts): vendor transcripts' word
// events (per channel), json-v2 word results (per channel, lines ending at is_eos) and the record's utterances'
// text and formattedText (per speaker). A value spoken across utterances is masked in each of them; masked
// words become one word event / one result carrying the mask and the times of the words it replaces.
import { docFromText } from './recognizers/doc.js';
import type { RecordRedactor } from './recordRedactor.js';
import { redactText } from './redactText.js';
import { ignoredWords } from './spans.js';
import { byStream, partMask, textStreamSpans, wordStreamSpans, type StreamSpan } from './streams.js';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const objects = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);

interface Cut {
  start: number;
  end: number;
  replacement: string;
  /** Set on the first part of its span: where the value is counted as an entity. */
  span?: StreamSpan;
}

/** Each span's parts, by piece, with what replaces them. `partText` gives a part's own text. */
function cutsByPiece(r: RecordRedactor, spans: StreamSpan[], count: number, partText: (piece: number, start: number, end: number) => string): Cut[][] {
  const cuts: Cut[][] = Array.from({ length: count }, () => []);
  for (const span of spans) {
    span.parts.forEach((part, k) => {
      const replacement = partMask(r, span, partText(part.piece, part.start, part.end));
      cuts[part.piece].push({ start: part.start, end: part.end, replacement, ...(k === 0 && { span }) });
    });
  }
  for (const list of cuts) list.sort((a, b) => a.start - b.start);
  return cuts;
}

/** Vendor shapes (resources 3 and 4): each channel's word events in time order, then the ctidata name fields. */
export function redactVendorTranscript(transcript: unknown, r: RecordRedactor): void {
  if (!isObject(transcript)) return;
  const utterances = Array.isArray(transcript.utterances) ? (transcript.utterances as unknown[]) : [];
  const lines = utterances.flatMap((u, line) => (isObject(u) && Array.isArray(u.events) ? [line] : []));
  const channelOf = (line: number) => (utterances[line] as { metadata?: { channel?: unknown } }).metadata?.channel;
  const eventsOf = (line: number) => (utterances[line] as Json).events as unknown[];
  const timeOf = (line: number) => num((utterances[line] as Json).start) ?? num((eventsOf(line).find(isObject) as Json | undefined)?.start);
  for (const stream of byStream(lines, channelOf, timeOf)) {
    const streamLines = stream.map((k) => lines[k]);
    const pieces = streamLines.map((line) => eventsOf(line).map((e) => (isObject(e) && typeof e.word === 'string' ? e.word : '')));
    const spans = wordStreamSpans(pieces, r.rules, r.custom, undefined, r.detections);
    const cuts = cutsByPiece(r, spans, pieces.length, (p, s, e) => pieces[p].slice(s, e).join(' '));
    streamLines.forEach((line, p) => {
      const utterance = utterances[line] as Json;
      const events = eventsOf(line);
      const out: unknown[] = [];
      // Copied one by one: spreading a long utterance's events into push() would overflow the stack.
      const keep = (from: number, to: number) => {
        for (let i = from; i < to; i++) out.push(events[i]);
      };
      let next = 0;
      for (const cut of cuts[p]) {
        keep(next, cut.start);
        const covered = events.slice(cut.start, cut.end) as Json[];
        if (cut.replacement !== '') {
          out.push({ word: cut.replacement, wordex: cut.replacement, start: covered[0]?.start, end: covered[covered.length - 1]?.end, confidence: 1 });
        }
        if (cut.span) r.foundSpan(cut.span, cut.replacement, { line, speaker: num(channelOf(line)) });
        next = cut.end;
      }
      keep(next, events.length);
      utterance.events = out;
      for (const event of out) {
        if (!isObject(event)) continue;
        // The words were searched as a stream; wordex is the same word (a differing one is searched on its own).
        r.markDone(event, 'word');
        if (typeof event.wordex !== 'string' || event.wordex.toLowerCase() === String(event.word ?? '').toLowerCase()) r.markDone(event, 'wordex');
      }
    });
  }
  redactCtiNames(transcript.ctidata, r);
}

/**
 * A name field is a name whatever a recognizer makes of it: masked whole as a Person when that kind is on,
 * unless it is allow-listed, or the record's own values claim part of it (they come first).
 */
function redactCtiNames(cti: unknown, r: RecordRedactor): void {
  if (!isObject(cti)) return;
  const person = r.kindRule('Person');
  for (const field of ['full_name', 'user_name']) {
    const value = cti[field];
    if (typeof value !== 'string' || !value) continue;
    // The record's own rules as sent: a value found elsewhere in the record does not make a name field less a name.
    const own = redactText(value, [], r.masker, r.own && { ...r.own, kinds: [] }).found.length > 0;
    const allowed = ignoredWords(docFromText(value), r.custom).every(Boolean);
    if (person && !allowed && !own) {
      cti[field] = r.masker.mask(person, value);
      r.found(person, value, cti[field] as string, 1);
    } else {
      cti[field] = r.text(value);
    }
    r.markDone(cti, field);
  }
}

/** json-v2 (resource 8): the word results of each channel, in order; a line ends at a result marked is_eos. */
export function redactJsonV2(transcript: unknown, r: RecordRedactor): void {
  if (!isObject(transcript) || !Array.isArray(transcript.results)) return;
  const results = transcript.results as unknown[];
  const channels = new Map<string, number[]>();
  results.forEach((result, i) => {
    if (!isObject(result) || result.type !== 'word') return;
    const channel = String(result.channel ?? '');
    const list = channels.get(channel);
    if (list) list.push(i);
    else channels.set(channel, [i]);
  });
  const firstAlternative = (i: number) => objects((results[i] as Json).alternatives)[0];
  const drop = new Set<number>();
  for (const indices of channels.values()) {
    const words = indices.map((i) => {
      const content = firstAlternative(i)?.content;
      return typeof content === 'string' ? content : '';
    });
    // The end of sentence may be marked on the word or on a punctuation result after it.
    const lineStarts = indices.flatMap((i, k) => (k > 0 && results.slice(indices[k - 1], i).some((x) => isObject(x) && x.is_eos === true) ? [k] : []));
    for (const span of wordStreamSpans([words], r.rules, r.custom, lineStarts, r.detections)) {
      const { start, end } = span.parts[0];
      const first = results[indices[start]] as Json;
      const last = results[indices[end - 1]] as Json;
      const replacement = partMask(r, span, words.slice(start, end).join(' '));
      const alternative = { ...(firstAlternative(indices[start]) ?? {}), content: replacement, confidence: 1 };
      results[indices[start]] = { ...first, end_time: last.end_time, alternatives: [alternative] };
      for (let k = start + (replacement === '' ? 0 : 1); k < end; k++) drop.add(indices[k]);
      r.foundSpan(span, replacement);
    }
    for (const i of indices) {
      const alternative = firstAlternative(i);
      if (alternative && !drop.has(i)) r.markDone(alternative, 'content');
    }
  }
  transcript.results = results.filter((_, i) => !drop.has(i));
}

/**
 * The record's utterances (resource 11): the text of each speaker in time order, then the formattedText the
 * same way. formattedText repeats the same values in another form: masked, but not counted again.
 */
export function redactUtterances(value: unknown, r: RecordRedactor): void {
  if (!Array.isArray(value)) return;
  const utterances = value as unknown[];
  for (const field of ['text', 'formattedText'] as const) {
    const lines = utterances.flatMap((u, line) => (isObject(u) && typeof u[field] === 'string' ? [line] : []));
    const speakerOf = (line: number) => {
      const u = utterances[line] as Json;
      return u.speaker ?? u.channel;
    };
    for (const stream of byStream(lines, speakerOf, (line) => num((utterances[line] as Json).start))) {
      const streamLines = stream.map((k) => lines[k]);
      const pieces = streamLines.map((line) => (utterances[line] as Json)[field] as string);
      const spans = textStreamSpans(pieces, r.rules, r.custom, r.detections);
      const cuts = cutsByPiece(r, spans, pieces.length, (p, s, e) => pieces[p].slice(s, e));
      streamLines.forEach((line, p) => {
        const utterance = utterances[line] as Json;
        const text = pieces[p];
        let out = '';
        let at = 0;
        for (const cut of cuts[p]) {
          out += text.slice(at, cut.start);
          if (cut.span && field === 'text') {
            r.foundSpan(cut.span, cut.replacement, {
              line,
              speaker: num(utterance.speaker),
              offset: out.length,
              length: cut.replacement.length,
            });
          } else if (cut.span) {
            r.rememberSpan(cut.span);
          }
          out += cut.replacement;
          at = cut.end;
        }
        utterance[field] = out + text.slice(at);
        r.markDone(utterance, field);
      });
    }
  }
}
