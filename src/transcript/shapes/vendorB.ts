// Resource 4, vendorBTranscript: as vendorATranscript, with `model` as an array, no requestid, streamtags
// limited to what the interface declares for it (emotion, gender, billing, datahdr; `token` is a credential
// and is never echoed), and textinfoB: textinfo plus `overtalk` (see textinfo.ts).
import type { VendorBTranscript } from '../../schema/resources/vendorTranscripts.js';
import type { RenderMeta } from '../meta.js';
import { computeTextInfo } from '../textinfo.js';
import type { Transcript } from '../types.js';
import type { TranscriptUtterance } from '../utterances.js';
import { echoStreamtags } from './streamtags.js';
import { meanConfidence, vendorDates, vendorUtterance } from './vendorA.js';

type VendorBUtterance = NonNullable<VendorBTranscript['utterances']>[number];

export const VENDOR_B_STREAMTAG_BOOLEANS = ['emotion', 'gender'];
export const VENDOR_B_STREAMTAG_STRINGS = ['billing', 'datahdr'];

export function toVendorBTranscript(
  transcript: Transcript,
  utterances: readonly TranscriptUtterance[],
  meta: RenderMeta = {},
): VendorBTranscript {
  const model = meta.model ?? transcript.model;
  const info = computeTextInfo(transcript, utterances);
  const flags = meta.streamtags ?? {};
  const declared = Object.fromEntries(
    Object.entries(flags).filter(([key]) => VENDOR_B_STREAMTAG_BOOLEANS.includes(key) || VENDOR_B_STREAMTAG_STRINGS.includes(key)),
  );
  return {
    ...(meta.fileName !== undefined && { source: meta.fileName }),
    model: [model],
    asr: transcript.engine,
    ...vendorDates(meta),
    audiosecs: transcript.audioSeconds,
    nchannels: transcript.channels.length,
    confidence: meanConfidence(transcript.channels.flatMap((ch) => ch.words)),
    streamtags: echoStreamtags(declared, VENDOR_B_STREAMTAG_BOOLEANS, VENDOR_B_STREAMTAG_STRINGS),
    utterances: utterances.map((u): VendorBUtterance => vendorUtterance(u, model, meta)),
    chaninfo: info.channels.map((ch) => ({ textinfo: ch.textinfo })),
    textinfo: info.overall,
  };
}
