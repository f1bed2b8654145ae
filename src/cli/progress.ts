// How `scrubline transcribe` shows its work. On a terminal: a bar per recording that moves with recognition
// (0-10% reading the audio, 10-90% recognition as the engine's batches finish, 90-100% writing) and an overall
// bar; a recording that fails keeps its bar where it stopped, marked FAILED, and every failure is printed in
// full after the bars (a bar line is cut at the terminal's width, a reason must not be). Elsewhere: a line per
// recording when it ends, failures with their full reason.
import path from 'node:path';
import cliProgress from 'cli-progress';

export interface Reporter {
  start(file: string): void;
  /** `fraction` of the recording's work done (0..1), with the stage it is in. */
  progress(file: string, fraction: number, stage: string): void;
  done(file: string, line: string): void;
  failed(file: string, reason: string): void;
  stop(): void;
}

const SCALE = 100;

export function terminalReporter(files: string[], write: (line: string) => void, stream: NodeJS.WritableStream = process.stderr, tty = true): Reporter {
  const bars = new cliProgress.MultiBar(
    {
      format: ' {bar} {percentage}% | {name} | {stage}',
      hideCursor: true,
      clearOnComplete: false,
      stream: stream as NodeJS.WriteStream,
      ...(!tty && { noTTYOutput: true, notTTYSchedule: 10 }),
    },
    cliProgress.Presets.shades_classic,
  );
  const overall = bars.create(files.length, 0, { name: 'all recordings', stage: '' });
  const perFile = new Map<string, cliProgress.SingleBar>();
  const failures: string[] = [];
  return {
    start: (file) => perFile.set(file, bars.create(SCALE, 0, { name: path.basename(file), stage: 'starting' })),
    progress: (file, fraction, stage) => perFile.get(file)?.update(Math.min(SCALE, Math.max(0, Math.round(fraction * SCALE))), { stage }),
    done: (file, line) => {
      perFile.get(file)?.update(SCALE, { stage: line });
      overall.increment();
    },
    failed: (file, reason) => {
      // The bar stays where the work stopped: a failure is never drawn as a full bar.
      perFile.get(file)?.update({ stage: 'FAILED (reason below)' });
      overall.increment();
      failures.push(`FAILED ${file}: ${reason}`);
    },
    stop: () => {
      bars.stop();
      for (const line of failures) write(line);
    },
  };
}

export function lineReporter(files: string[], write: (line: string) => void): Reporter {
  let finished = 0;
  return {
    start: () => {},
    progress: () => {},
    done: (file, line) => write(`[${++finished}/${files.length}] ${file}: ${line}`),
    failed: (file, reason) => write(`[${++finished}/${files.length}] ${file}: failed: ${reason}`),
    stop: () => {},
  };
}
