// A text job's input, kept as a file in the job's folder (never in the jobs row: a row cannot be made to
// forget what it once held, a file can be removed). The worker reads it; it is removed once the job's text
// was redacted or the job failed, and with the job.
import fs from 'node:fs';
import path from 'node:path';

const FILE_NAME = 'input.txt';

/** The folder of a job's files (its recording, redacted copy or text input), relative to the data dir. */
export function jobFolder(jobId: string): string {
  return path.join('uploads', jobId);
}

function inputPath(dataDir: string, jobId: string): string {
  return path.join(dataDir, jobFolder(jobId), FILE_NAME);
}

export function writeTextInput(dataDir: string, jobId: string, text: string): void {
  const file = inputPath(dataDir, jobId);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // Written whole under another name, then renamed: a crash leaves the old input or the new, never half.
  fs.writeFileSync(`${file}.partial`, text, { mode: 0o600 });
  fs.renameSync(`${file}.partial`, file);
}

/** The job's text input, or undefined when none is kept (redacted, failed, or never written). */
export function readTextInput(dataDir: string, jobId: string): string | undefined {
  try {
    return fs.readFileSync(inputPath(dataDir, jobId), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

export function hasTextInput(dataDir: string, jobId: string): boolean {
  return fs.existsSync(inputPath(dataDir, jobId));
}

export function removeTextInput(dataDir: string, jobId: string): void {
  fs.rmSync(inputPath(dataDir, jobId), { force: true });
}

/** Parameters without the text: what may be stored in the jobs row. */
export function withoutText<T extends { text?: unknown }>(params: T): Omit<T, 'text'> {
  const { text: _text, ...rest } = params;
  return rest;
}
