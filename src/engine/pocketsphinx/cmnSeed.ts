// The cepstral mean a live stream's incremental decoder starts from (issue 33). A live decoder (full_utt off)
// normalises each frame by a running mean that starts at the model's `-cmninit` (feat.params: 40,3,-1, far from
// real audio) and only converges after some seconds, so a stream's first utterance decoded worst: its partials
// agreed 36% with batch against 74% for the same audio heard again later in the stream (bench/stream-first-utterance.ts).
// Seeded with the mean the decoder converges to on typical audio of the model's band, the first utterance is as
// good as a later one; the running mean still adapts to the call from there and carries across its utterances.
//
// PocketSphinx reads the model's feat.params after the command line and lets it override `-cmninit`, so the seed
// is given as a copy of feat.params with the seeded line (`-featparams`), written once per process.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PocketSphinxModel } from './decoder.js';

/**
 * Mean cepstra (c0-c12) of the dev audio's speech segments through each band's front end (frames with c0 < 0
 * skipped, as live CMN skips them): `npx tsx bench/cmn-seed.ts`. Telephone: the same audio as 8 kHz mu-law,
 * resampled to 16 kHz as a stream's is (the empty band above 4 kHz moves every coefficient).
 */
export const CMN_SEEDS = {
  wideband: [57.86, 7.97, -1.79, 8.27, -13.31, -6.64, -16.75, 3.78, -1.17, -1.24, -1.11, -2.56, 5.49],
  telephone: [50.14, 34.38, -36.03, 38.13, -28.73, -8.99, -0.27, -19.58, 20.05, -14.51, 2.56, 1.82, -3.03],
} as const;

/** The front end the seeds were measured with (the en-us model's feat.params): another model gets no seed. */
const MEASURED_FRONT_END: Record<string, string> = { '-lowerf': '130', '-upperf': '6800', '-nfilt': '25', '-transform': 'dct', '-lifter': '22', '-feat': '1s_c_d_dd' };

const written = new Map<string, string | null>();

/** Which seed a model gets: the telephone-band one for the model with the telephone-band transform. */
export function seedBand(model: PocketSphinxModel): keyof typeof CMN_SEEDS {
  return model.mllr ? 'telephone' : 'wideband';
}

/**
 * Decoder arguments that seed the live cepstral mean (`-featparams` naming a seeded copy of the model's
 * feat.params), or none when the model's front end is not the one measured or the settings name their own.
 */
export function cmnSeedArgs(model: PocketSphinxModel): string[] {
  if (model.extraArgs?.some((a) => a === '-featparams' || a === '-cmninit')) return [];
  const source = path.join(model.hmm, 'feat.params');
  const band = seedBand(model);
  const key = `${source}\0${band}`;
  if (!written.has(key)) written.set(key, writeSeeded(source, CMN_SEEDS[band]));
  const file = written.get(key);
  return file ? ['-featparams', file] : [];
}

/** feat.params with its -cmninit line set to `seed`, as a file of its own (null: not the measured front end). */
export function seededFeatParams(text: string, seed: readonly number[]): string | null {
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  const settings = new Map(lines.map((l) => l.split(/\s+/, 2) as [string, string]));
  if (Object.entries(MEASURED_FRONT_END).some(([k, v]) => settings.get(k) !== v)) return null;
  return [...lines.filter((l) => !l.startsWith('-cmninit')), `-cmninit ${seed.join(',')}`].join('\n') + '\n';
}

function writeSeeded(source: string, seed: readonly number[]): string | null {
  let text: string;
  try {
    text = fs.readFileSync(source, 'utf8');
  } catch {
    return null;
  }
  const seeded = seededFeatParams(text, seed);
  if (seeded === null) return null;
  const dir = path.join(os.tmpdir(), 'scrubline-cmn-seed');
  const file = path.join(dir, `${createHash('sha256').update(seeded).digest('hex').slice(0, 16)}.params`);
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Ours alone: a folder another user made (or a link) in a shared temporary directory is not trusted.
    const st = fs.lstatSync(dir);
    if (!st.isDirectory() || (process.getuid && st.uid !== process.getuid())) return null;
    if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === seeded) return file;
    // Written whole under a temporary name, then renamed: another thread or process never reads half a file.
    const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    fs.writeFileSync(tmp, seeded);
    fs.renameSync(tmp, file);
    return file;
  } catch {
    return null; // an unwritable temporary directory: unseeded, as before
  }
}
