// Resource 8, the transcript shape, following Speechmatics' json-v2 convention:
//   format '2.9'
//   job       {created_at (ISO), data_name (file name; a text job's fileName, else its job id), duration (audio
//              seconds, rounded to an integer as json-v2 types it), id (job id; the file name without a job),
//              tracking.reference (tracking_id, when given)}  -- created_at, data_name, duration, id always
//   metadata  {created_at (ISO, when the transcript was finished; always), type 'transcription',
//              transcription_config {language (primary subtag, 'en'), diarization ('channel' for 2+ channels,
//              'none' for mono), output_locale ('en-US', when the language names a region)}}
//   results   one 'word' result per recognized word, sorted by start_time across channels (ties: channel),
//             each {type, start_time, end_time, channel 'channel_1'.., is_eos,
//                   alternatives [{content (the word), confidence, language, speaker 'S1' agent / 'S2' caller}]}.
//             With punctuate, a 'punctuation' result '.' follows the last word of each utterance, with
//             start_time = end_time = that word's end, attaches_to 'previous', confidence 1, is_eos true.
//             Without it, is_eos is true on the last word of each utterance. Every other result has is_eos false.
import type { TranscriptShape } from '../../schema/resources/transcriptShape.js';
import { isoDate, type RenderMeta } from '../meta.js';
import { speakersOf } from '../roles.js';
import type { Transcript } from '../types.js';
import type { TranscriptUtterance } from '../utterances.js';

type Result = NonNullable<TranscriptShape['results']>[number];

export const JSON_V2_FORMAT = '2.9';

/** 'en-us' -> {language: 'en', locale: 'en-US'}; 'en' -> {language: 'en'}. */
export function languageParts(code: string): { language: string; locale?: string } {
  const [primary, region] = code.split(/[-_]/);
  const language = (primary || code).toLowerCase();
  return region && /^[a-z]{2}$/i.test(region) ? { language, locale: `${language}-${region.toUpperCase()}` } : { language };
}

export function toTranscriptShape(
  transcript: Transcript,
  utterances: readonly TranscriptUtterance[],
  meta: RenderMeta = {},
): TranscriptShape {
  const { language, locale } = languageParts(meta.language ?? transcript.language ?? 'en');
  const speakers = speakersOf(transcript.channels.map((ch) => ch.channel), meta);
  const channelName = (channel: number) => `channel_${channel + 1}`;

  interface Entry {
    result: Result;
    punctuation?: Result;
    order: number;
    channel: number;
  }
  const entries: Entry[] = [];
  for (const u of utterances) {
    const speaker = speakers.get(u.channel)?.tag ?? `S${u.channel + 1}`;
    u.words.forEach((w, i) => {
      const last = i === u.words.length - 1;
      const result: Result = {
        type: 'word',
        start_time: w.start,
        end_time: w.end,
        channel: channelName(u.channel),
        is_eos: last && !meta.punctuate,
        alternatives: [{ content: w.word, confidence: w.confidence, language, speaker }],
      };
      // attaches_to is json-v2's own field beyond those the interface names (the schema keeps extra fields).
      const punctuation: Result | undefined =
        last && meta.punctuate
          ? ({
              type: 'punctuation',
              start_time: w.end,
              end_time: w.end,
              channel: channelName(u.channel),
              is_eos: true,
              attaches_to: 'previous',
              alternatives: [{ content: '.', confidence: 1, language, speaker }],
            } as Result)
          : undefined;
      entries.push({ result, punctuation, order: entries.length, channel: u.channel });
    });
  }
  entries.sort((a, b) => a.result.start_time! - b.result.start_time! || a.channel - b.channel || a.order - b.order);

  // Every field a strict json-v2 reader requires is always there (Speechmatics' published schema: JobInfo
  // created_at, data_name, duration (integer seconds), id; RecognitionMetadata created_at, type): a shape
  // rendered without a job (the CLI, a test) names its file as the id and the time of rendering as its dates.
  const completed = isoDate(meta.completedAt ?? meta.createdAt) ?? new Date().toISOString();
  const created = isoDate(meta.createdAt) ?? completed;
  const dataName = meta.fileName ?? meta.jobId ?? 'transcript';
  return {
    format: JSON_V2_FORMAT,
    job: {
      created_at: created,
      data_name: dataName,
      duration: Math.max(0, Math.round(transcript.audioSeconds ?? 0)),
      id: meta.jobId ?? dataName,
      ...(meta.trackingId !== undefined && { tracking: { reference: meta.trackingId } }),
    },
    metadata: {
      created_at: completed,
      type: 'transcription',
      transcription_config: {
        language,
        diarization: transcript.channels.length > 1 ? 'channel' : 'none',
        ...(locale !== undefined && { output_locale: locale }),
      },
    },
    results: entries.flatMap((e) => (e.punctuation ? [e.result, e.punctuation] : [e.result])),
  };
}
