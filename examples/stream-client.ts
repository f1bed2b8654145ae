// A small live-stream client for Scrubline's WebSocket protocol (GET /asr/stream): reads a recording with ffmpeg,
// sends it in real-time-sized chunks (paced like a live call unless told otherwise), and prints every message the
// server sends: partial and final realTimeMessage objects, back-pressure notices, the closing summary. Control
// messages (pause/resume: a window the agent marks) go at given seconds of the audio.
//
//   node --import tsx examples/stream-client.ts --url ws://127.0.0.1:8080/asr/stream --file call.wav \
//        [--encoding mulaw|alaw|pcm_s16le] [--rate 8000] [--channels 2] [--key KEY] [--sid PROJECT] [--pace 1] \
//        [--controls '[{"atSeconds":12,"message":{"type":"pause","kind":"CreditCardNumber"}},{"atSeconds":30,"message":{"type":"resume"}}]']
//
// The tests and bench/stream.ts use streamAudio() from here.
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import WebSocket from 'ws';

export interface ReceivedMessage {
  /** ms since the first audio was sent. */
  at: number;
  message: Record<string, any>;
}

export interface StreamAudioOptions {
  url: string;
  /** The start message (type: 'start' is added). */
  start: Record<string, unknown>;
  /** The encoded audio, interleaved, in the start message's encoding. */
  audio: Buffer;
  /** Bytes per second of `audio` (all channels). */
  bytesPerSecond: number;
  apiKey?: string;
  /** Milliseconds of audio per frame (default 100). */
  chunkMs?: number;
  /** 1: real time (default); 2: twice as fast; 0: as fast as the socket takes it. */
  pace?: number;
  /**
   * Vanish after sending this many seconds of audio: no end message and no WebSocket close, the TCP connection
   * just closed, as the kernel closes a killed process's sockets.
   */
  vanishAfterSeconds?: number;
  /**
   * Control messages sent between audio frames: each just before the first frame at or after `atSeconds` of
   * audio (so the server's window starts there, to the frame), in order; those past the end before the end message.
   */
  controls?: { atSeconds: number; message: Record<string, unknown> }[];
  /** Every message as it arrives. */
  onMessage?(received: ReceivedMessage): void;
  /** Called before each frame is sent, with the stream time (s) of its first sample. */
  onSend?(streamSeconds: number, at: number): void;
}

export interface StreamResult {
  messages: ReceivedMessage[];
  started?: Record<string, any>;
  summary?: Record<string, any>;
  closeCode: number;
  closeReason: string;
}

export function streamAudio(options: StreamAudioOptions): Promise<StreamResult> {
  const chunkMs = options.chunkMs ?? 100;
  const pace = options.pace ?? 1;
  const frameBytes = Math.max(2, Math.round((options.bytesPerSecond * chunkMs) / 1000 / 4) * 4);
  const socket = new WebSocket(options.url, { headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {} });
  const messages: ReceivedMessage[] = [];
  let t0 = 0;
  const now = () => (t0 === 0 ? 0 : performance.now() - t0);
  return new Promise((resolve, reject) => {
    let started: Record<string, any> | undefined;
    let summary: Record<string, any> | undefined;
    // A connection that never opened fails the call; an error once the call is under way (the server ending the
    // stream while frames are still in flight, a reset as it closes) is reported by the close that follows it.
    let failure: Error | undefined;
    socket.on('error', (error) => {
      if (socket.readyState === WebSocket.CONNECTING || t0 === 0) reject(error);
      else failure ??= error;
    });
    socket.on('message', (data, isBinary) => {
      if (isBinary) return;
      const message = JSON.parse(data.toString()) as Record<string, any>;
      const received = { at: now(), message };
      messages.push(received);
      options.onMessage?.(received);
      if (message.type === 'started') {
        started = message;
        send().catch((error: Error) => (failure ??= error));
      }
      if (message.type === 'summary') summary = message;
    });
    socket.on('close', (code, reason) => resolve({ messages, started, summary, closeCode: code, closeReason: reason.toString() || (failure?.message ?? '') }));
    socket.on('open', () => socket.send(JSON.stringify({ type: 'start', ...options.start })));

    const controls = [...(options.controls ?? [])].sort((a, b) => a.atSeconds - b.atSeconds);
    const sendControls = (upTo: number) => {
      while (controls.length > 0 && controls[0].atSeconds <= upTo && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(controls.shift()!.message));
    };
    const send = async () => {
      t0 = performance.now();
      for (let at = 0; at < options.audio.length; at += frameBytes) {
        const seconds = at / options.bytesPerSecond;
        if (options.vanishAfterSeconds !== undefined && seconds >= options.vanishAfterSeconds) {
          // A FIN, not ws's terminate(): destroying a socket whose receive buffer still holds unread server
          // messages sends a reset, and the server's kernel then drops audio it has not read yet (how much
          // depends on the machine's load). What was sent is what the server must keep.
          (socket as unknown as { _socket: import('node:net').Socket })._socket.end();
          return;
        }
        if (pace > 0) {
          const due = (seconds * 1000) / pace;
          const wait = due - now();
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        }
        if (socket.readyState !== WebSocket.OPEN) return;
        sendControls(seconds);
        options.onSend?.(seconds, now());
        // Wait for the socket to take the frame: the server's back-pressure reaches the sender here. A frame the
        // socket could not take because the server has ended the stream meanwhile is no failure: sending stops.
        await new Promise<void>((r, j) => socket.send(options.audio.subarray(at, at + frameBytes), (e) => (e && socket.readyState === WebSocket.OPEN ? j(e) : r())));
      }
      sendControls(Infinity);
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: 'end' }));
    };
  });
}

/** A recording as the bytes of a stream: `encoding` at `rate`, `channels` interleaved (ffmpeg). */
export function encodeFile(file: string, encoding: 'pcm_s16le' | 'mulaw' | 'alaw', rate: number, channels: number): { audio: Buffer; bytesPerSecond: number } {
  const format = encoding === 'pcm_s16le' ? 's16le' : encoding;
  const audio = execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-i', file, '-ac', String(channels), '-ar', String(rate), '-f', format, '-'], {
    maxBuffer: 1 << 30,
  });
  return { audio, bytesPerSecond: rate * channels * (encoding === 'pcm_s16le' ? 2 : 1) };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      url: { type: 'string', default: 'ws://127.0.0.1:8080/asr/stream' },
      file: { type: 'string' },
      encoding: { type: 'string', default: 'pcm_s16le' },
      rate: { type: 'string', default: '16000' },
      channels: { type: 'string', default: '1' },
      key: { type: 'string' },
      sid: { type: 'string' },
      pace: { type: 'string', default: '1' },
      controls: { type: 'string' },
    },
  });
  if (!values.file) throw new Error('--file is required');
  const encoding = values.encoding as 'pcm_s16le' | 'mulaw' | 'alaw';
  const rate = Number(values.rate);
  const channels = Number(values.channels);
  const { audio, bytesPerSecond } = encodeFile(values.file, encoding, rate, channels);
  const result = await streamAudio({
    url: values.url!,
    apiKey: values.key ?? process.env.SCRUBLINE_API_KEY,
    start: { sampleRate: rate, encoding, channels, ...(channels === 2 && { agentChannel: 0 }), ...(values.sid && { sid: values.sid }) },
    audio,
    bytesPerSecond,
    pace: Number(values.pace),
    ...(values.controls && { controls: JSON.parse(values.controls) }),
    onMessage: ({ at, message }) => {
      if (message.type === 'realTimeMessage') {
        const m = message.realTimeMessage;
        console.log(`${(at / 1000).toFixed(2)}s #${message.sequence} ch${message.channel} ${m.isFinal ? 'FINAL  ' : 'partial'} [${m.speaker}] ${m.text}`);
      } else console.log(`${(at / 1000).toFixed(2)}s ${JSON.stringify(message)}`);
    },
  });
  console.log(`closed ${result.closeCode} ${result.closeReason}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error: unknown) => {
    console.error((error as Error).message);
    process.exit(1);
  });
}
