// Resource 3, vendorATranscript (V-Blaze's JSON): utterances with word events, per-channel and overall
// textinfo, the request's flags echoed as streamtags, and the job's dates.
//
// - utterances: one per TranscriptUtterance, in conversation order; `events` carry the recognized words with
//   their times and confidences exactly as the engine gave them (numbers stay words here: formatted text is
//   resource 11's formattedText); metadata {source: file name, model, uttid: row, channel}; confidence is the
//   mean of the word confidences.
// - chaninfo[i] / textinfo: see textinfo.ts for the meaning of turns, words, wordtime and silence.
// - streamtags: the request's flags (meta.streamtags, declared fields coerced to their types, credentials
//   dropped), with model, numtrans and punctuate overridden by what was in force (meta.model/numtrans/punctuate).
// - confidence: mean word confidence over the whole call; audiosecs, nchannels from the recording.
// - recvdate = createdAt, started = startedAt (or createdAt), ended = donedate = completedAt, written
//   `YYYY-MM-DD HH:MM:SS.mmm` in UTC, with recvtz ['UTC', 0].
import type { VendorATranscript } from '../../schema/resources/vendorTranscripts.js';
import { round3, vendorDate, type RenderMeta } from '../meta.js';
import { computeTextInfo, withoutOvertalk } from '../textinfo.js';
import type { Transcript, Word } from '../types.js';
import type { TranscriptUtterance } from '../utterances.js';
import { echoStreamtags } from './streamtags.js';

type VendorAUtterance = NonNullable<VendorATranscript['utterances']>[number];

export const VENDOR_A_STREAMTAG_BOOLEANS = ['emotion', 'punctuate', 'numtrans', 'diarize', 'substinfo', 'scrubtext', 'gender', 'scrubaudio', 'realtime'];
export const VENDOR_A_STREAMTAG_STRINGS = ['model', 'datahdr', 'filters'];

/** Mean confidence of words (0 when there are none). */
export function meanConfidence(words: readonly Word[]): number {
  return words.length === 0 ? 0 : round3(words.reduce((sum, w) => sum + w.confidence, 0) / words.length);
}

/** Fields shared by both vendor shapes' utterances. */
export function vendorUtterance(u: TranscriptUtterance, model: string, meta: RenderMeta) {
  return {
    start: u.start,
    end: u.end,
    confidence: meanConfidence(u.words),
    events: u.words.map((w) => ({ word: w.word, start: w.start, end: w.end, confidence: w.confidence })),
    metadata: {
      ...(meta.fileName !== undefined && { source: meta.fileName }),
      model,
      uttid: u.row,
      channel: u.channel,
    },
  };
}

/** The job's dates, shared by both vendor shapes. */
export function vendorDates(meta: RenderMeta) {
  const recvdate = vendorDate(meta.createdAt);
  const started = vendorDate(meta.startedAt ?? meta.createdAt);
  const done = vendorDate(meta.completedAt);
  return {
    ...(recvdate !== undefined && { recvdate }),
    recvtz: ['UTC', 0],
    ...(started !== undefined && { started }),
    ...(done !== undefined && { ended: done, donedate: done }),
  };
}

export function toVendorATranscript(
  transcript: Transcript,
  utterances: readonly TranscriptUtterance[],
  meta: RenderMeta = {},
): VendorATranscript {
  const model = meta.model ?? transcript.model;
  const info = computeTextInfo(transcript, utterances);
  // The request's flags, then what was in force (the model used, numtrans/punctuate as applied) over them.
  const streamtags = {
    ...echoStreamtags(meta.streamtags, VENDOR_A_STREAMTAG_BOOLEANS, VENDOR_A_STREAMTAG_STRINGS),
    model,
    ...(meta.numtrans !== undefined && { numtrans: meta.numtrans }),
    ...(meta.punctuate !== undefined && { punctuate: meta.punctuate }),
  };
  const out: VendorATranscript = {
    ...(meta.fileName !== undefined && { source: meta.fileName }),
    model,
    asr: transcript.engine,
    ...(meta.jobId !== undefined && { requestid: meta.jobId }),
    ...vendorDates(meta),
    audiosecs: transcript.audioSeconds,
    nchannels: transcript.channels.length,
    confidence: meanConfidence(transcript.channels.flatMap((ch) => ch.words)),
    streamtags,
    utterances: utterances.map((u): VendorAUtterance => vendorUtterance(u, model, meta)),
    chaninfo: info.channels.map((ch) => ({ textinfo: withoutOvertalk(ch.textinfo) })),
    textinfo: withoutOvertalk(info.overall),
  };
  return out;
}
