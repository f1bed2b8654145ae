// A live-stream worker thread (engine/streamPool.ts): holds the incremental decoders of the stream channels
// placed on it, one fresh decoder per channel (pocketsphinx/streamDecoder.ts; sherpa/online.ts for a streaming
// sherpa-onnx model, sherpa/segmentStream.ts for an offline one), and answers each chunk with what
// it recognized. Messages of different streams interleave: the pool sends at most one chunk per stream at a
// time, so a stream with a backlog waits its turn instead of holding the others up.
import { parentPort } from 'node:worker_threads';
import { type Arrivals, StreamDecoder, type StreamStep } from './pocketsphinx/streamDecoder.js';
import { heldModels } from './sherpa/decode.js';
import { isOnlineFamily } from './sherpa/modelFolder.js';
import { SherpaStreamDecoder } from './sherpa/online.js';
import { SegmentStreamDecoder } from './sherpa/segmentStream.js';
import type { StreamDecoderSpec, StreamReply, StreamRequest } from './streamPool.js';

if (!parentPort) throw new Error('streamWorker.ts runs as a worker thread of engine/streamPool.ts');
const port = parentPort;
interface ChannelDecoder {
  /** `arrivals`: when the chunk's parts arrived (a PocketSphinx decoder sheds late final passes by them). */
  accept(samples: Int16Array, arrivals?: Arrivals): StreamStep;
  finish(): StreamStep;
  free(): void;
}

const decoders = new Map<string, ChannelDecoder>();

/**
 * Lowers this thread's priority with @napi-rs/nice (Linux setpriority on the calling thread; piscina's optional
 * dependency, also what the redaction pool uses). Without it the thread keeps the process's priority.
 */
function lowerPriority(increment: number): void {
  import('@napi-rs/nice').then((m: { nice(increment: number): number }) => m.nice(increment)).catch(() => undefined);
}

function decoderFor(spec: StreamDecoderSpec): ChannelDecoder {
  if (spec.engine === 'pocketsphinx') return new StreamDecoder(spec.model, spec.vad, spec.finals, spec.partials, spec.deadlineMs ?? Infinity, spec.maxDelay ?? Infinity);
  // A streaming model decodes as the audio comes; an offline one per utterance (streaming simulated).
  if (isOnlineFamily(spec.spec.family)) return new SherpaStreamDecoder(spec.model, spec.spec, spec.vad);
  return new SegmentStreamDecoder(spec.model, spec.spec, spec.vad, spec.align, spec.maxUtteranceSeconds);
}

function fail(id: string, error: unknown): StreamReply {
  const e = error as Error;
  return { id, ok: false, error: { message: e?.message ?? String(error), permanent: (error as { permanent?: unknown })?.permanent === true } };
}

port.on('message', (request: StreamRequest) => {
  const { id } = request;
  let reply: StreamReply | undefined;
  try {
    switch (request.op) {
      case 'open':
        decoders.set(id, decoderFor(request.decoder));
        // The sherpa-onnx models this thread now holds (kept after the stream ends): what /asr/sysinfo counts.
        reply = { id, ok: true, op: 'opened', heldModels: heldModels() };
        break;
      case 'audio': {
        const decoder = decoders.get(id);
        if (!decoder) throw new Error(`no open stream ${id}`);
        reply = { id, ok: true, op: 'step', step: decoder.accept(request.samples, request.arrivals) };
        break;
      }
      case 'finish': {
        const decoder = decoders.get(id);
        if (!decoder) throw new Error(`no open stream ${id}`);
        const step = decoder.finish();
        decoder.free();
        decoders.delete(id);
        reply = { id, ok: true, op: 'finished', step };
        break;
      }
      case 'close':
        decoders.get(id)?.free();
        decoders.delete(id);
        return; // no answer: the stream is gone
      case 'nice':
        lowerPriority(request.increment);
        return;
    }
  } catch (error) {
    decoders.get(id)?.free();
    decoders.delete(id);
    reply = fail(id, error);
  }
  if (reply) port.postMessage(reply);
});
