// `scrubline transcribe <files or folders...>`: recognize recordings on this machine, without a server,
// writing each transcript in the chosen formats. Progress bars on a terminal, plain lines otherwise.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultEngineParams } from '../engine/params.js';
import { recognizeFile } from '../engine/recognize.js';
import { isTranscriptFormat, transcriptFileName, renderTranscript, type RenderMeta, type TranscriptFormat, utteranceOptionsFromParams } from '../transcript/index.js';
import { outputNames } from './outputNames.js';
import { lineReporter, terminalReporter } from './progress.js';
import { cliRules, redactForCli, type CliRedaction } from './redaction.js';

const AUDIO_EXTENSIONS = new Set(['.wav', '.mp3', '.flac', '.ogg', '.opus', '.m4a', '.aac', '.wma', '.webm', '.mp4', '.amr', '.au', '.gsm']);

export interface TranscribeCliOptions extends CliRedaction {
  out: string;
  format: string;
  model?: string;
  numtrans: boolean;
  /** Sentence-final punctuation, as the server (default true). */
  punctuate?: boolean;
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
  // A recording named twice (a file and its folder, or the same file twice) is transcribed once.
  const seen = new Set<string>();
  return found.filter((file) => !seen.has(path.resolve(file)) && seen.add(path.resolve(file)));
}

export function parseFormats(value: string): TranscriptFormat[] {
  const formats = value.split(',').map((f) => f.trim()).filter(Boolean);
  const bad = formats.filter((f) => !isTranscriptFormat(f));
  if (bad.length > 0 || formats.length === 0) {
    throw new Error(`Unknown format ${bad.join(', ') || '(none)'}: use vendorA, vendorB, transcript, utterances, text, srt or vtt`);
  }
  return formats as TranscriptFormat[];
}

export async function transcribeCommand(inputs: string[], options: TranscribeCliOptions, write = (line: string) => console.log(line)): Promise<number> {
  const formats = parseFormats(options.format);
  const files = findRecordings(inputs);
  if (files.length === 0) throw new Error('No recordings found in what was named.');
  // Distinct outputs for recordings of one name, decided (or refused) before any work.
  const names = outputNames(files);
  fs.mkdirSync(options.out, { recursive: true });
  // Checked before any work: a redaction that cannot be done as asked is refused, not skipped.
  const rules = cliRules(options);
  const reporter = process.stdout.isTTY ? terminalReporter(files, write) : lineReporter(files, write);
  // The server's defaults: numbers as digits and punctuation unless turned off.
  const params = { ...defaultEngineParams(os.tmpdir()), numtrans: options.numtrans !== false, punctuate: options.punctuate !== false };
  let failures = 0;
  let totalAudio = 0;
  const started = performance.now();
  const queue = [...files];
  const work = async () => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      reporter.start(file);
      try {
        const createdAt = new Date();
        reporter.progress(file, 0, 'reading the audio');
        const recognized = await recognizeFile(file, {
          model: options.model,
          params,
          onProgress: (fraction) => reporter.progress(file, 0.1 + 0.8 * fraction, 'recognizing'),
        });
        reporter.progress(file, 0.9, rules ? 'redacting' : 'writing');
        const transcript = await redactForCli(recognized, rules);
        // The meta a job gets (jobs/renderMeta.ts), so the files match the server's shapes word for word.
        const meta: RenderMeta = {
          fileName: path.basename(file),
          createdAt,
          completedAt: new Date(),
          numtrans: params.numtrans,
          punctuate: params.punctuate,
          ...utteranceOptionsFromParams(params),
        };
        const base = path.join(options.out, names.get(file)!);
        fs.mkdirSync(path.dirname(base), { recursive: true });
        for (const format of formats) {
          const { body } = renderTranscript(format, transcript, meta);
          fs.writeFileSync(transcriptFileName(base, format), typeof body === 'string' ? body : JSON.stringify(body, null, 2));
        }
        totalAudio += transcript.audioSeconds;
        const words = transcript.channels.reduce((n, c) => n + c.words.length, 0);
        reporter.done(file, `${words} words, ${transcript.audioSeconds.toFixed(1)} s of audio in ${transcript.processingSeconds.toFixed(1)} s`);
      } catch (error) {
        failures++;
        reporter.failed(file, (error as Error).message);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, files.length)) }, work));
  reporter.stop();
  const seconds = (performance.now() - started) / 1000;
  write(`${files.length - failures} of ${files.length} recordings transcribed (${totalAudio.toFixed(1)} s of audio in ${seconds.toFixed(1)} s) into ${options.out}`);
  return failures === 0 ? 0 : 1;
}
