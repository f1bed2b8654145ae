// At start, the service (re)builds the telephone-band transform in the background when it is missing or
// stale: the build script checks the hash of its inputs and returns at once when the cache is good. Serving
// never waits for it; the model list notices the transform when it appears.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';

const SCRIPT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../scripts/build-telephony-model.sh');

export function buildTelephonyInBackground(logger: Logger): void {
  if (!fs.existsSync(SCRIPT)) return;
  const started = Date.now();
  const child = spawn(SCRIPT, [], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk).slice(-2000)));
  child.on('error', (error) => logger.warn({ err: error.message }, 'could not run the telephone-band model build'));
  child.on('exit', (code) => {
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (code === 0) logger.info({ seconds }, 'telephone-band model checked (built or already current)');
    else logger.warn({ code, seconds, stderr: stderr.trim().split('\n').slice(-3).join(' | ') }, 'telephone-band model build failed; calls use the wideband model');
  });
  child.unref();
}
