// `scrubline transcribe <files or folders...>`: recognize recordings on this machine, without a server,
// writing each transcript in the chosen formats. Progress bars on a terminal, plain lines otherwise.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import cliProgress from 'cli-progress';
import { defaultEngineParams } from '../engine/params.js';
import { recognizeFile } from '../engine/recognize.js';
import { isTranscriptFormat, transcriptFileName, renderTranscript, type TranscriptFormat, utteranceOptionsFromParams } from '../transcript/index.js';

const AUDIO_EXTENSIONS = new Set(['.wav', '.mp3', '.flac', '.ogg', '.opus', '.m4a', '.aac', '.wma', '.webm', '.mp4', '.amr', '.au', '.gsm']);

export interface TranscribeCliOptions {
  out: string;
  format: string;
  model?: string;
  numtrans: boolean;
  concurrency: number;
}

/** The recordings named: files as given, folders searched recursively for audio by extension. */
export function findRecordings(inputs: string[]): string[] {
  const found: string[] = [];
  const walk = (entry: string) => {
    const stat = fs.statSync(entry);
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(entry).sort()) walk(path.join(entry, name));
    } else if (inputs.includes(entry) || AUDIO_EXTENSIONS.has(path.extname(entry).toLowerCase())) {
      found.push(entry);
    }
  };
  for (const input of inputs) {
    if (!fs.existsSync(input)) throw new Error(`No such file or folder: ${input}`);
    walk(input);
  }
  return found;
}

export function parseFormats(value: string): TranscriptFormat[] {
  const formats = value.split(',').map((f) => f.trim()).filter(Boolean);
  const bad = formats.filter((f) => !isTranscriptFormat(f));
  if (bad.length > 0 || formats.length === 0) {
    throw new Error(`Unknown format ${bad.join(', ') || '(none)'}: use vendorA, vendorB, transcript, utterances, text, srt or vtt`);
  }
  return formats as TranscriptFormat[];
}

interface Reporter {
  start(file: string): void;
  step(file: string, stage: string): void;
  done(file: string, line: string, audioSeconds: number): void;
  stop(): void;
}

const STAGES = ['recognizing', 'writing', 'done'];

function terminalReporter(files: string[]): Reporter {
  const bars = new cliProgress.MultiBar(
    { format: ' {bar} {percentage}% | {name} | {stage}', hideCursor: true, clearOnComplete: false },
    cliProgress.Presets.shades_classic,
  );
  const overall = bars.create(files.length, 0, { name: 'all recordings', stage: '' });
  const perFile = new Map<string, cliProgress.SingleBar>();
  return {
    start: (file) => perFile.set(file, bars.create(STAGES.length, 0, { name: path.basename(file), stage: 'starting' })),
    step: (file, stage) => perFile.get(file)?.update(STAGES.indexOf(stage) + 1, { stage }),
    done: (file, line) => {
      perFile.get(file)?.update(STAGES.length, { stage: line });
      overall.increment();
    },
    stop: () => bars.stop(),
  };
}

function lineReporter(files: string[], write: (line: string) => void): Reporter {
  let finished = 0;
  return {
    start: () => {},
    step: () => {},
    done: (file, line) => write(`[${++finished}/${files.length}] ${file}: ${line}`),
    stop: () => {},
  };
}

export async function transcribeCommand(inputs: string[], options: TranscribeCliOptions, write = (line: string) => console.log(line)): Promise<number> {
  const formats = parseFormats(options.format);
  const files = findRecordings(inputs);
  if (files.length === 0) throw new Error('No recordings found in what was named.');
  fs.mkdirSync(options.out, { recursive: true });
  const reporter = process.stdout.isTTY ? terminalReporter(files) : lineReporter(files, write);
  const params = { ...defaultEngineParams(os.tmpdir()), numtrans: options.numtrans };
  let failures = 0;
  let totalAudio = 0;
  const started = performance.now();
  const queue = [...files];
  const work = async () => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      reporter.start(file);
      try {
        reporter.step(file, 'recognizing');
        const transcript = await recognizeFile(file, { model: options.model, params });
        reporter.step(file, 'writing');
        const meta = { fileName: path.basename(file), numtrans: options.numtrans, ...utteranceOptionsFromParams(params) };
        const base = path.join(options.out, path.basename(file, path.extname(file)));
        for (const format of formats) {
          const { body } = renderTranscript(format, transcript, meta);
          fs.writeFileSync(transcriptFileName(base, format), typeof body === 'string' ? body : JSON.stringify(body, null, 2));
        }
        totalAudio += transcript.audioSeconds;
        const words = transcript.channels.reduce((n, c) => n + c.words.length, 0);
        reporter.done(file, `${words} words, ${transcript.audioSeconds.toFixed(1)} s of audio in ${transcript.processingSeconds.toFixed(1)} s`, transcript.audioSeconds);
      } catch (error) {
        failures++;
        reporter.done(file, `failed: ${(error as Error).message}`, 0);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, files.length)) }, work));
  reporter.stop();
  const seconds = (performance.now() - started) / 1000;
  write(`${files.length - failures} of ${files.length} recordings transcribed (${totalAudio.toFixed(1)} s of audio in ${seconds.toFixed(1)} s) into ${options.out}`);
  return failures === 0 ? 0 : 1;
}
