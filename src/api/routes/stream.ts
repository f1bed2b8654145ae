// Live streams over WebSocket: GET /asr/stream (the Scrubline protocol: a JSON start message, binary audio
// frames, an end message) and GET /asr/stream/twilio (Twilio Media Streams). Both feed a StreamSession
// (stream/session.ts) and send what it emits: realTimeMessage objects with sequence numbers and the closing
// summary. Authentication: the same API keys, from a header or, for clients that cannot set one, from the start
// message (`token`; Twilio: a <Parameter name="token">), with the `submit` scope.
//
// Close codes: 1000 ended (summary sent), 1008 refused (authentication, invalid start message), 1011 failed,
// 1013 at capacity (try again later). Every refusal is first sent as {type: "error", status, detail, ...}.
// Control messages `pause` / `resume` mark sensitive windows (stream/markedWindows.ts): a refused pause ends the
// stream (it asked for redaction that cannot be done exactly: fail closed); a refused resume does not (the
// windows stay as they were: more redaction, never less).
import crypto from 'node:crypto';
import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import { decodeMuLaw } from '../../audio/g711.js';
import { ServiceError } from '../../errors.js';
import { presentedKey } from '../auth.js';
import Type from 'typebox';
import { problem, sendProblem, STATUS } from '../problems.js';
import { ref } from '../../schema/registry.js';
import { responses } from '../schemas.js';
import type { Services } from '../../services.js';
import { StreamPause, StreamResume, type StreamStart } from '../../schema/resources/streamMessages.js';
import { check } from '../../schema/validator.js';
import { openStream, parseStart } from '../../stream/open.js';
import type { StreamEntry } from '../../stream/registry.js';
import type { OutgoingMessage, StreamSession } from '../../stream/session.js';
import { parseTwilio, trackOf } from '../../stream/twilio.js';

/** The start message must come within this (ms). */
const START_TIMEOUT_MS = 10_000;
/** Audio waiting for a decoder beyond this (s) pauses reading from the client (TCP back-pressure) ... */
export const PAUSE_BACKLOG_SECONDS = 2;
/** ... until it is under this again. */
const RESUME_BACKLOG_SECONDS = 0.5;
/** Largest frame accepted (bytes): a second of 48 kHz stereo 16-bit audio is 192 KB. */
const MAX_FRAME_BYTES = 1 << 20;

type Protocol = 'scrubline' | 'twilio';

class LiveConnection {
  private session: StreamSession | undefined;
  private starting: Promise<void> | undefined;
  private early: (() => void)[] = [];
  private readonly id = crypto.randomUUID();
  private admitted = false;
  /** The one ending of this stream: every path that ends it (end message, stop, idle, refusal, disconnect) awaits it. */
  private ending: Promise<void> | undefined;
  private finished = false;
  private paused = false;
  private tracks: Record<string, number> = {};
  private readonly startTimer: NodeJS.Timeout;

  constructor(
    private readonly services: Services,
    private readonly socket: WebSocket,
    private readonly request: FastifyRequest,
    private readonly protocol: Protocol,
  ) {
    this.startTimer = setTimeout(() => {
      if (!this.starting) this.refuse(new ServiceError('invalid', `No start message within ${START_TIMEOUT_MS / 1000} s.`));
    }, START_TIMEOUT_MS);
    this.startTimer.unref();
    socket.on('message', (data, isBinary) => this.onMessage(data, isBinary));
    socket.on('close', () => void this.onClose());
    socket.on('error', () => void this.onClose());
  }

  private send(message: OutgoingMessage): void {
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(JSON.stringify(message));
  }

  private onMessage(data: RawData, isBinary: boolean): void {
    if (this.finished) return;
    const bytes = toBytes(data);
    if (isBinary) {
      if (this.protocol === 'twilio') return this.refuse(new ServiceError('invalid', 'Twilio Media Streams send JSON text frames only.'));
      if (!this.starting) return this.refuse(new ServiceError('invalid', 'The first message must be the JSON start message.'));
      return this.whenReady(() => this.audio(0, bytes, false));
    }
    let message: unknown;
    try {
      message = JSON.parse(Buffer.from(bytes).toString('utf8'));
    } catch {
      return this.refuse(new ServiceError('invalid', 'A text frame must be one JSON message.'));
    }
    try {
      if (this.protocol === 'twilio') return this.onTwilio(message);
      const type = (message as { type?: unknown })?.type;
      if (type === 'start') {
        if (this.starting) throw new ServiceError('invalid', 'The stream has already started.');
        this.begin(parseStart(message));
      } else if (type === 'end') {
        if (!this.starting) throw new ServiceError('invalid', 'The stream has not started.');
        this.whenReady(() => void this.end('the client ended the stream'));
      } else if (type === 'pause' || type === 'resume') {
        if (!this.starting) throw new ServiceError('invalid', 'The stream has not started.');
        // In order with the audio frames around it: the window's time is the audio received before it.
        this.whenReady(() => this.control(message as { type: 'pause' | 'resume' }));
      } else throw new ServiceError('invalid', 'A text frame is {"type": "start", ...}, {"type": "pause", ...}, {"type": "resume", ...} or {"type": "end"}.');
    } catch (error) {
      this.refuse(error as Error);
    }
  }

  private onTwilio(message: unknown): void {
    const event = parseTwilio(message);
    switch (event.event) {
      case 'start':
        if (this.starting) throw new ServiceError('invalid', 'The stream has already started.');
        this.tracks = event.tracks;
        this.begin(parseStart(event.start));
        return;
      case 'media': {
        if (!this.starting) throw new ServiceError('invalid', 'A media message came before the start message.');
        const channel = this.tracks[trackOf(message)];
        if (channel === undefined) return; // a track the start message did not name
        this.whenReady(() => {
          if (event.timestamp !== undefined) this.gap(channel, event.timestamp / 1000);
          this.audio(channel, event.payload, true);
        });
        return;
      }
      case 'stop':
        if (this.starting) this.whenReady(() => void this.end('the call stopped (Twilio stop)'));
        return;
      default:
        return; // connected, mark: nothing to do
    }
  }

  private begin(start: StreamStart): void {
    clearTimeout(this.startTimer);
    this.starting = (async () => {
      const caller = await this.request.server.authenticate(this.request, 'submit', presentedKey(this.request) ?? start.token);
      // Admission first: a stream refused at capacity costs no decoder.
      const entry: StreamEntry = { protocol: this.protocol, idleSeconds: 60, close: (reason) => void this.end(reason) };
      await this.services.streams.acquire(this.id, entry);
      let opened;
      try {
        opened = await openStream(this.services, start, caller, (m) => this.send(m), this.id, (error) => this.refuse(error));
      } catch (error) {
        await this.services.streams.release(this.id);
        throw error;
      }
      entry.session = opened.session;
      entry.idleSeconds = opened.idleSeconds;
      this.admitted = true;
      this.session = opened.session;
      this.send({
        type: 'started',
        streamId: this.id,
        model: opened.session.model,
        channels: opened.session.channelCount,
        redaction: { kinds: opened.kinds },
        idleTimeoutSeconds: opened.idleSeconds,
      });
      if (this.finished) return void this.end('the client went away');
      for (const run of this.early.splice(0)) run();
    })().catch((error) => this.refuse(error as Error));
  }

  /** Runs now when the session is open, else once it is (frames that came while it was opening). */
  private whenReady(run: () => void): void {
    if (this.session) run();
    else this.early.push(run);
  }

  /** pause / resume: acknowledged with the window's stream time per channel, or refused (a pause: the stream ends). */
  private control(message: { type: 'pause' | 'resume' }): void {
    const session = this.session!;
    if (session.ended) return;
    try {
      const issues = check(message.type === 'pause' ? StreamPause : StreamResume, message);
      if (issues.length > 0) {
        const first = issues[0];
        throw new ServiceError('invalid', `The ${message.type} message is invalid: ${first.path || '(root)'} ${first.message}.`, issues);
      }
      if (message.type === 'pause') this.send({ type: 'paused', ...session.pause(message as StreamPause) });
      else this.send({ type: 'resumed', ...session.resume(message as StreamResume) });
    } catch (error) {
      if (message.type === 'pause' || !(error instanceof ServiceError)) return this.refuse(error as Error, { control: message.type });
      this.send({ ...errorMessage(error), control: 'resume', closing: false });
    }
  }

  private audio(channel: number, bytes: Uint8Array, oneChannel: boolean): void {
    const session = this.session!;
    if (session.ended) return;
    if (bytes.length > MAX_FRAME_BYTES) return this.refuse(new ServiceError('too_large', `A frame holds at most ${MAX_FRAME_BYTES} bytes.`));
    if (oneChannel) session.acceptChannel(channel, decodeMuLaw(bytes)); // Twilio: mu-law, one track per message
    else session.acceptFrame(bytes);
    this.backPressure();
  }

  /** A Twilio track's timestamp ahead of its audio: silence fills the gap (a refusal ends the stream). */
  private gap(channel: number, seconds: number): void {
    const session = this.session!;
    if (session.ended) return;
    try {
      session.fillTo(channel, seconds);
    } catch (error) {
      this.refuse(error as Error);
    }
  }

  /** Faster than real time: stop reading the socket (the client's sends then block) and say so, until caught up. */
  private backPressure(): void {
    const session = this.session!;
    if (this.paused || session.backlogSeconds() < PAUSE_BACKLOG_SECONDS) return;
    this.paused = true;
    this.socket.pause();
    this.send({ type: 'backpressure', paused: true, backlogSeconds: round3(session.backlogSeconds()), detail: 'audio is arriving faster than it is recognized: reading paused until the backlog clears' });
    const check = setInterval(() => {
      if (session.ended || session.backlogSeconds() <= RESUME_BACKLOG_SECONDS) {
        clearInterval(check);
        this.paused = false;
        this.socket.resume();
        if (!session.ended) this.send({ type: 'backpressure', paused: false, backlogSeconds: round3(session.backlogSeconds()) });
      }
    }, 50);
  }

  /**
   * Ends the stream once: the session ends (its job made), its slot is released, and only then is the socket closed,
   * so a client that opens its next stream on the close is never refused for a slot this one still held.
   */
  private end(reason: string): Promise<void> {
    const session = this.session;
    if (!session) return Promise.resolve();
    this.ending ??= (async () => {
      if (this.paused) this.socket.resume();
      try {
        await session.end(reason);
      } finally {
        if (this.admitted) {
          this.admitted = false;
          await this.services.streams.release(this.id);
        }
        this.close(1000, reason);
      }
    })();
    return this.ending;
  }

  /** The client went away: the call still ends properly (its job is made from what was received). */
  private async onClose(): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    clearTimeout(this.startTimer);
    if (this.session) await this.end('the client disconnected');
  }

  private refuse(error: Error, fields: Record<string, unknown> = {}): void {
    const kind = error instanceof ServiceError ? error.kind : undefined;
    if (!kind) this.request.log.error({ err: error }, 'live stream failed');
    const { detail } = errorMessage(error);
    this.send({ ...errorMessage(error), ...fields });
    // A session that has ended by itself (its engine failed) still holds its slot: the one ending releases it.
    if (this.session) {
      void this.end(detail);
      return;
    }
    this.close(kind === 'unavailable' ? 1013 : kind ? 1008 : 1011, detail);
  }

  private close(code: number, reason: string): void {
    this.finished = true;
    if (this.socket.readyState === this.socket.OPEN || this.socket.readyState === this.socket.CONNECTING) {
      this.socket.close(code, Buffer.from(reason).subarray(0, 123).toString());
    }
  }
}

/** A refusal as a message: {type: "error", status, detail, errors, ...}; an unexpected failure says only that it failed. */
function errorMessage(error: Error): OutgoingMessage & { detail: string } {
  const kind = error instanceof ServiceError ? error.kind : undefined;
  const status = kind ? STATUS[kind] : 500;
  const detail = kind ? error.message : 'The stream failed; the failure is logged.';
  return { type: 'error', status, detail, ...(error instanceof ServiceError && error.issues.length > 0 && { errors: error.issues }), ...(error instanceof ServiceError && error.extra) };
}

function toBytes(data: RawData): Uint8Array {
  if (Array.isArray(data)) return Buffer.concat(data);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return data;
}


function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

const DESCRIPTION = [
  'WebSocket. Send a JSON start message `{"type":"start","sampleRate":8000,"encoding":"mulaw","channels":2,"agentChannel":0,"sid":"...","engagementId":"...","token":"<key, when no header>"}`,',
  'then binary frames of interleaved audio in that encoding (about 20-250 ms each), then `{"type":"end"}`.',
  'The server sends `{"type":"started",...}`, `{"type":"realTimeMessage","sequence":n,"channel":c,"realTimeMessage":{isFinal,text,speaker,confidence,messageStartTime,messageEndTime,...},"words":[...]}`',
  '(partials isFinal false; finals with word times), `{"type":"backpressure",...}` when it pauses reading, and a closing `{"type":"summary",...,"jobId":"..."}`.',
  'Finals are kept as sent: GET /asr/stream/{streamId}/messages.',
  'With sid, a final that completes a phrase of one of the project\'s realTime insights carries alert, prompt and insights in its realTimeMessage (as POST /cache/real-call gives).',
  'Finals are redacted with the project\'s real_time rules and the kinds asked; partials hold back forming entities. Refusals: `{"type":"error",status,detail}` then close (1008; 1013 at capacity).',
  'Marked windows: `{"type":"pause","kind":"CreditCardNumber","channel":1}` (kind: SENSITIVE when absent; channel: every channel when absent) and `{"type":"resume","channel":1}` between audio frames,',
  'acknowledged `{"type":"paused"|"resumed",channels,at}` (at: seconds of audio received on each channel). Between them no partial is sent and every final word is the kind\'s mask;',
  'the after-call job gets the windows as client-marked sensitiveWindows (audio and words redacted whatever it recognizes; a stream that ends paused closes the window at its end).',
  'A refused pause (unknown kind or channel) ends the stream; a refused resume (nothing open) is `{"type":"error","status":409,"control":"resume","closing":false}` and the stream goes on.',
  'Any installed model streams: PocketSphinx incrementally, a streaming sherpa-onnx model (online-* families) chunk by chunk with its own endpointing, an offline sherpa-onnx model per utterance (each final a whole decode of the utterance, partials re-decoding it at a bounded rate).',
].join(' ');

export function streamRoutes(services: Services): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    await app.register(websocket, { options: { maxPayload: MAX_FRAME_BYTES } });
    const schema = (operationId: string, summary: string, description: string) => ({
      operationId,
      tags: ['Engine'],
      summary,
      description: `${description} A plain HTTP GET (no WebSocket upgrade) is answered 426.`,
      response: {
        ...responses({ 101: Type.Null({ description: 'Switching Protocols: the WebSocket is open; messages as described.' }) }, [426]),
        // The upgrade answers 101, not a 2xx; `default` documents whatever else comes back (always a problem).
        default: { description: 'Any other answer: a problem.', content: { 'application/problem+json': { schema: ref('Problem') } } },
      },
    });
    // A request without the upgrade: 426, saying how to connect.
    const upgradeRequired = async (_request: FastifyRequest, reply: FastifyReply) =>
      sendProblem(reply.header('upgrade', 'websocket'), problem(426, 'This path is a WebSocket: connect with an Upgrade: websocket request (see the description in /openapi.json).'));
    // Authentication happens on the start message (a header key, else its token): the upgrade itself is public.
    app.route({
      method: 'GET',
      url: '/asr/stream',
      config: { scope: 'public' },
      schema: schema('openStream', 'Live stream (WebSocket): audio in, redacted partial and final transcripts out', DESCRIPTION),
      handler: upgradeRequired,
      wsHandler: (socket, request) => {
        new LiveConnection(services, socket, request, 'scrubline');
      },
    });
    app.route({
      method: 'GET',
      url: '/asr/stream/twilio',
      config: { scope: 'public' },
      schema: schema(
        'openTwilioStream',
        'Live stream in the Twilio Media Streams format (WebSocket)',
        'Point a TwiML <Stream url="wss://host/asr/stream/twilio" track="both_tracks"> here; <Parameter>s carry token, sid, types, engagementId, agentId, campaign, model. Outbound (agent) is channel 0, inbound (caller) channel 1. Messages sent back are those of /asr/stream.',
      ),
      handler: upgradeRequired,
      wsHandler: (socket, request) => {
        new LiveConnection(services, socket, request, 'twilio');
      },
    });
  };
}
