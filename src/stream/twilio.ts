// Twilio Media Streams (https://www.twilio.com/docs/voice/media-streams/websocket-messages) as a stream: JSON
// text frames `connected`, `start` (streamSid, callSid, tracks, mediaFormat, customParameters), `media` (base64
// 8 kHz mu-law of the `inbound` or `outbound` track), `mark`, `stop`. With both tracks the call is two channels:
// inbound (the caller) channel 1, outbound (the agent) channel 0. Settings a Scrubline start message carries
// (token, sid, types, scrubaudio, engagementId, agentId, campaign, model, ...) come as <Parameter>s of the
// <Stream> verb (customParameters).
import { invalid } from '../errors.js';
import type { StreamStart } from '../schema/resources/streamMessages.js';

export type TwilioEvent =
  | { event: 'connected' }
  | { event: 'start'; start: StreamStart; tracks: Record<string, number> }
  | { event: 'media'; channel: number | undefined; payload: Uint8Array; timestamp?: number }
  | { event: 'mark' }
  | { event: 'stop' }
  | { event: 'other' };

const TRACKS_BOTH = { outbound: 0, inbound: 1 };

/** One Twilio message, parsed; a malformed one is a 400-style refusal. */
export function parseTwilio(message: unknown): TwilioEvent {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) throw invalid('A Twilio Media Streams message is a JSON object.');
  const m = message as Record<string, unknown>;
  switch (m.event) {
    case 'connected':
      return { event: 'connected' };
    case 'start': {
      const start = (m.start ?? {}) as Record<string, unknown>;
      const format = (start.mediaFormat ?? {}) as Record<string, unknown>;
      if (format.encoding !== undefined && format.encoding !== 'audio/x-mulaw') throw invalid(`Twilio media encoding ${String(format.encoding)} is not audio/x-mulaw.`);
      const tracks = Array.isArray(start.tracks) ? start.tracks.map(String) : ['inbound'];
      const both = tracks.includes('inbound') && tracks.includes('outbound');
      const custom = (start.customParameters ?? {}) as Record<string, unknown>;
      const text = (name: string) => (typeof custom[name] === 'string' && custom[name] !== '' ? (custom[name] as string) : undefined);
      const types = text('types');
      const scrubline: Record<string, unknown> = {
        type: 'start',
        sampleRate: Number(format.sampleRate ?? 8000),
        encoding: 'mulaw',
        channels: both ? 2 : 1,
        ...(both && { agentChannel: 0 }),
        ...(text('token') && { token: text('token') }),
        ...(text('sid') && { sid: text('sid') }),
        ...(types && { types: types.split(',').map((t) => t.trim()).filter(Boolean) }),
        ...(text('scrubaudio') && { scrubaudio: text('scrubaudio') === 'true' }),
        ...(text('scrubsound') && { scrubsound: text('scrubsound') }),
        engagementId: text('engagementId') ?? (typeof start.streamSid === 'string' ? start.streamSid : undefined),
        ...(typeof start.callSid === 'string' && { ucid: text('ucid') ?? start.callSid, callSid: start.callSid }),
        ...(text('agentId') && { agentId: text('agentId') }),
        ...(text('clientNumber') && { clientNumber: text('clientNumber') }),
        ...(text('campaign') && { campaign: text('campaign') }),
        ...(text('model') && { model: text('model') }),
        ...(text('partials') && { partials: text('partials') !== 'false' }),
        // A number, or what is given (the start message's check then names the field).
        ...(text('maxDelay') && { maxDelay: Number.isFinite(Number(text('maxDelay'))) ? Number(text('maxDelay')) : text('maxDelay') }),
        ...(text('job') && { job: text('job') !== 'false' }),
        ...(text('webhook') && { webhook: text('webhook') }),
        ...(text('analytics') && { analytics: text('analytics') === 'true' }),
        ...(text('insights') && { insights: text('insights')!.split(',').map((t) => t.trim()).filter(Boolean) }),
      };
      for (const key of Object.keys(scrubline)) if (scrubline[key] === undefined) delete scrubline[key];
      return { event: 'start', start: scrubline as StreamStart, tracks: both ? TRACKS_BOTH : { [tracks[0] ?? 'inbound']: 0 } };
    }
    case 'media': {
      const media = (m.media ?? {}) as Record<string, unknown>;
      if (typeof media.payload !== 'string') throw invalid('A Twilio media message needs media.payload (base64 mu-law).');
      // media.timestamp: ms of the track from the stream's start; a track that starts late or has gaps is placed by it.
      const timestamp = Number(media.timestamp);
      return {
        event: 'media',
        channel: undefined,
        payload: Buffer.from(media.payload, 'base64'),
        ...(media.timestamp !== undefined && Number.isFinite(timestamp) && timestamp >= 0 && { timestamp }),
        ...(typeof media.track === 'string' && { track: media.track }),
      } as TwilioEvent;
    }
    case 'mark':
      return { event: 'mark' };
    case 'stop':
      return { event: 'stop' };
    default:
      return { event: 'other' };
  }
}

/** The track a media message names (inbound when it names none, as Twilio's one-track streams do). */
export function trackOf(message: unknown): string {
  const media = ((message as Record<string, unknown>)?.media ?? {}) as Record<string, unknown>;
  return typeof media.track === 'string' ? media.track : 'inbound';
}
