// A decoder pool worker (engine/pool.ts): runs decode tasks through the C library, one at a time, and answers
// each with its words or its error. PocketSphinx: a decoder per model kept on the thread and reset per task as a
// fresh one (decoder.ts decodeWarm); sherpa-onnx: one recognizer per model kept for the worker's life
// (sherpa/decode.ts).
import { parentPort, threadId } from 'node:worker_threads';
import { decodeWarm, freeWarmDecoders, type DecodeResult } from './pocketsphinx/decoder.js';
import type { PoolTask, WorkerReply } from './pool.js';
import { decodeSherpa, heldModels } from './sherpa/decode.js';

function unknownTask(task: never): never {
  throw new Error(`unknown decode task kind ${String((task as { kind?: unknown }).kind)}`);
}

if (!parentPort) throw new Error('poolWorker.ts runs as a worker thread of engine/pool.ts');
const port = parentPort;

port.on('message', (task: PoolTask | { kind: 'release' }) => {
  if (task.kind === 'release') {
    // The pool is closing: the kept decoders' C memory would outlive this thread.
    freeWarmDecoders();
    port.postMessage({ released: true });
    return;
  }
  let reply: WorkerReply;
  try {
    const result: DecodeResult & { alignedWords?: number; spreadUnits?: number } =
      task.kind === 'pocketsphinx'
        ? decodeWarm(task.model, task.samples, task.units)
        : task.kind === 'sherpa'
          ? decodeSherpa(task.model, task.spec, task.samples, task.units, task.align)
          : unknownTask(task);
    const words = task.offsetSeconds === 0 ? result.words : result.words.map((w) => ({
      ...w,
      start: Math.round((w.start + task.offsetSeconds) * 1000) / 1000,
      end: Math.round((w.end + task.offsetSeconds) * 1000) / 1000,
    }));
    reply = {
      ok: true,
      result: {
        words,
        initSeconds: result.initSeconds,
        decodeSeconds: result.decodeSeconds,
        rssBytes: process.memoryUsage.rss(),
        workerId: threadId,
        ...(result.alignedWords !== undefined && { alignedWords: result.alignedWords, spreadUnits: result.spreadUnits, heldModels: heldModels() }),
      },
    };
  } catch (error) {
    const e = error as Error;
    const permanent = (error as { permanent?: unknown }).permanent === true;
    reply = { ok: false, error: { name: e.name ?? 'Error', message: e.message ?? String(error), stack: e.stack, permanent } };
  }
  port.postMessage(reply);
});
