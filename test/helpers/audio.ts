// Audio for tests: the development recordings (vendored at test/fixtures/dev-data, or SCRUBLINE_DEV_DATA), and
// speech made on the spot with espeak-ng and ffmpeg (Debian packages).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { devDataDir } from './devData.js';

export const DEV_DATA = devDataDir();

export function devAudio(relative: string): string | undefined {
  const file = path.join(DEV_DATA, relative);
  if (fs.existsSync(file)) return file;
  if (process.env.SCRUBLINE_REQUIRE_DEV_DATA === '1') throw new Error(`dev audio missing: ${file}`);
  return undefined;
}

export function hasTool(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export function tempDir(prefix = 'scrubline-audio-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function ffmpeg(args: string[]): void {
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
}

/** Speak `text` with espeak-ng into a 16 kHz mono WAV. */
export function speak(text: string, out: string, options: { voice?: string; speed?: number } = {}): string {
  const raw = `${out}.espeak.wav`;
  execFileSync('espeak-ng', ['-v', options.voice ?? 'en-us', '-s', String(options.speed ?? 150), '-w', raw, text]);
  ffmpeg(['-i', raw, '-ar', '16000', '-ac', '1', out]);
  fs.rmSync(raw, { force: true });
  return out;
}

export function durationOf(file: string): number {
  const out = execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'default=nw=1:nk=1', file], { encoding: 'utf8' });
  return Number(out.trim());
}

/** Two mono files as the left and right channels of one stereo file (the shorter padded with silence). */
export function stereo(left: string, right: string, out: string, codecArgs: string[] = []): string {
  const longest = Math.max(durationOf(left), durationOf(right)).toFixed(3);
  ffmpeg([
    '-i', left, '-i', right,
    '-filter_complex', `[0:a]aresample=16000,apad=whole_dur=${longest}s[l];[1:a]aresample=16000,apad=whole_dur=${longest}s[r];[l][r]join=inputs=2:channel_layout=stereo[a]`,
    '-map', '[a]', ...codecArgs, out,
  ]);
  return out;
}

/** Speak `text` with festival's US English HTS voice (Debian festvox-us-slt-hts) into a 16 kHz mono WAV. */
export function speakFestival(text: string, out: string): string {
  const textFile = `${out}.txt`;
  const raw = `${out}.festival.wav`;
  fs.writeFileSync(textFile, text);
  execFileSync('text2wave', ['-eval', '(voice_cmu_us_slt_arctic_hts)', textFile, '-o', raw]);
  ffmpeg(['-i', raw, '-ar', '16000', '-ac', '1', out]);
  fs.rmSync(textFile, { force: true });
  fs.rmSync(raw, { force: true });
  return out;
}

export const hasFestivalVoice = (): boolean => hasTool('text2wave') && fs.existsSync('/usr/share/festival/voices/us/cmu_us_slt_arctic_hts');
