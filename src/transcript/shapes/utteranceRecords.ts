// Resource 11, utterances[]: one record per TranscriptUtterance, in conversation order.
//   start/end    first word's start, last word's end (seconds)
//   text         the recognized words joined by spaces
//   formattedText numtrans (meta.numtrans) and punctuate (meta.punctuate) applied; equal to text otherwise
//   confidence   mean word confidence
//   speaker      0 agent, 1 caller (roles.ts; 0 on mono); channel the audio channel; row 0-based conversation order
//   jobId, campaignId, conversationId from meta when given
import type { Utterance } from '../../schema/resources/conversationItems.js';
import { formatWords } from '../format.js';
import type { RenderMeta } from '../meta.js';
import { speakersOf } from '../roles.js';
import type { Transcript } from '../types.js';
import type { TranscriptUtterance } from '../utterances.js';
import { meanConfidence } from './vendorA.js';

export function toUtteranceRecords(
  transcript: Pick<Transcript, 'channels'>,
  utterances: readonly TranscriptUtterance[],
  meta: RenderMeta = {},
): Utterance[] {
  const speakers = speakersOf(transcript.channels.map((ch) => ch.channel), meta);
  return utterances.map((u) => {
    const text = u.words.map((w) => w.word).join(' ');
    const formattedText = formatWords(u.words, { numtrans: meta.numtrans, punctuate: meta.punctuate }).text;
    return {
      start: u.start,
      end: u.end,
      text,
      formattedText,
      confidence: meanConfidence(u.words),
      speaker: speakers.get(u.channel)?.speaker ?? u.channel,
      channel: u.channel,
      row: u.row,
      ...(meta.jobId !== undefined && { jobId: meta.jobId }),
      ...(meta.campaignId !== undefined && { campaignId: meta.campaignId }),
      ...(meta.conversationId !== undefined && { conversationId: meta.conversationId }),
    };
  });
}
