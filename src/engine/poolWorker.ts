// A decoder pool worker (engine/pool.ts): runs decode tasks through the C library, one at a time, and answers
// each with its words or its error. A fresh decoder per task (decoder.ts).
import { parentPort } from 'node:worker_threads';
import { decodePcm } from './pocketsphinx/decoder.js';
import type { PoolTask, WorkerReply } from './pool.js';

if (!parentPort) throw new Error('poolWorker.ts runs as a worker thread of engine/pool.ts');
const port = parentPort;

port.on('message', (task: PoolTask) => {
  let reply: WorkerReply;
  try {
    if (task.kind !== 'pocketsphinx') throw new Error(`unknown decode task kind ${String((task as { kind?: unknown }).kind)}`);
    const result = decodePcm(task.model, task.samples, task.units);
    const words = task.offsetSeconds === 0 ? result.words : result.words.map((w) => ({
      ...w,
      start: Math.round((w.start + task.offsetSeconds) * 1000) / 1000,
      end: Math.round((w.end + task.offsetSeconds) * 1000) / 1000,
    }));
    reply = {
      ok: true,
      result: { words, initSeconds: result.initSeconds, decodeSeconds: result.decodeSeconds, rssBytes: process.memoryUsage.rss() },
    };
  } catch (error) {
    const e = error as Error;
    const permanent = (error as { permanent?: unknown }).permanent === true;
    reply = { ok: false, error: { name: e.name ?? 'Error', message: e.message ?? String(error), stack: e.stack, permanent } };
  }
  port.postMessage(reply);
});
