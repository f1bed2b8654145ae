// Every output shape of a transcript, from the one internal word-timed transcript: what the API answers at
// GET /asr/jobs/{jobId}/transcript?format=... and what a job record stores.
import type { Utterance } from '../schema/resources/conversationItems.js';
import type { TranscriptShape } from '../schema/resources/transcriptShape.js';
import type { VendorATranscript, VendorBTranscript } from '../schema/resources/vendorTranscripts.js';
import type { RenderMeta } from './meta.js';
import { toTranscriptShape } from './shapes/jsonV2.js';
import { toSrt, toVtt } from './shapes/subtitles.js';
import { toPlainText } from './shapes/text.js';
import { toUtteranceRecords } from './shapes/utteranceRecords.js';
import { toVendorATranscript } from './shapes/vendorA.js';
import { toVendorBTranscript } from './shapes/vendorB.js';
import type { Transcript } from './types.js';
import { buildUtterances, type TranscriptUtterance } from './utterances.js';

export const TRANSCRIPT_FORMATS = ['vendorA', 'vendorB', 'transcript', 'utterances', 'text', 'srt', 'vtt'] as const;
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];

export function isTranscriptFormat(value: unknown): value is TranscriptFormat {
  return typeof value === 'string' && (TRANSCRIPT_FORMATS as readonly string[]).includes(value);
}

export const CONTENT_TYPES: Record<TranscriptFormat, string> = {
  vendorA: 'application/json; charset=utf-8',
  vendorB: 'application/json; charset=utf-8',
  transcript: 'application/json; charset=utf-8',
  utterances: 'application/json; charset=utf-8',
  text: 'text/plain; charset=utf-8',
  srt: 'application/x-subrip; charset=utf-8',
  vtt: 'text/vtt; charset=utf-8',
};

/** File extension for a download (Content-Disposition). */
export const FILE_EXTENSIONS: Record<TranscriptFormat, string> = {
  vendorA: 'json',
  vendorB: 'json',
  transcript: 'json',
  utterances: 'json',
  text: 'txt',
  srt: 'srt',
  vtt: 'vtt',
};

/** A file name for a transcript: JSON shapes keep their format in the name (several share .json). */
export function transcriptFileName(base: string, format: TranscriptFormat): string {
  const extension = FILE_EXTENSIONS[format];
  return extension === 'json' ? `${base}.${format}.json` : `${base}.${extension}`;
}

interface BodyOf {
  vendorA: VendorATranscript;
  vendorB: VendorBTranscript;
  transcript: TranscriptShape;
  utterances: Utterance[];
  text: string;
  srt: string;
  vtt: string;
}

export interface Rendered<F extends TranscriptFormat = TranscriptFormat> {
  format: F;
  contentType: string;
  body: BodyOf[F];
}

/** The utterances every shape of this transcript is built from (meta's maxSilenceSeconds / maxUtteranceSeconds). */
export function utterancesFor(transcript: Transcript, meta: RenderMeta = {}): TranscriptUtterance[] {
  return buildUtterances(transcript, { maxSilenceSeconds: meta.maxSilenceSeconds, maxUtteranceSeconds: meta.maxUtteranceSeconds });
}

/** One shape of a transcript; JSON formats answer an object (or an array), the others a string. */
export function renderTranscript<F extends TranscriptFormat>(
  format: F,
  transcript: Transcript,
  meta: RenderMeta = {},
  utterances: readonly TranscriptUtterance[] = utterancesFor(transcript, meta),
): Rendered<F> {
  const bodies: { [K in TranscriptFormat]: () => BodyOf[K] } = {
    vendorA: () => toVendorATranscript(transcript, utterances, meta),
    vendorB: () => toVendorBTranscript(transcript, utterances, meta),
    transcript: () => toTranscriptShape(transcript, utterances, meta),
    utterances: () => toUtteranceRecords(transcript, utterances, meta),
    text: () => toPlainText(transcript, utterances, meta),
    srt: () => toSrt(transcript, utterances, meta),
    vtt: () => toVtt(transcript, utterances, meta),
  };
  const make = bodies[format] as (() => BodyOf[F]) | undefined;
  if (!make) throw new RangeError(`unknown transcript format ${String(format)}`);
  return { format, contentType: CONTENT_TYPES[format], body: make() };
}

export type { RenderMeta } from './meta.js';
export type { Transcript, Word, ChannelTranscript, SpeechSegment } from './types.js';
export { buildUtterances, utteranceOptionsFromParams, type TranscriptUtterance, type UtteranceOptions } from './utterances.js';
export { agentChannel, roleOf, speakersOf, type Role, type RoleOptions, type ChannelSpeaker } from './roles.js';
export { numtrans, type NumtransResult, type NumtransToken } from './numtrans.js';
export { formatWords } from './format.js';
export { computeTextInfo } from './textinfo.js';
export { toVendorATranscript } from './shapes/vendorA.js';
export { toVendorBTranscript } from './shapes/vendorB.js';
export { toTranscriptShape } from './shapes/jsonV2.js';
export { toUtteranceRecords } from './shapes/utteranceRecords.js';
export { toPlainText } from './shapes/text.js';
export { buildCues, toSrt, toVtt, formatTimestamp } from './shapes/subtitles.js';
