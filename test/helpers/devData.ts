// The development audio with reference transcripts: vendored at test/fixtures/dev-data (licences in its
// LICENSES.md), or wherever SCRUBLINE_DEV_DATA points. Tests that use it skip when it is absent, unless
// SCRUBLINE_REQUIRE_DEV_DATA=1 (set by CI) makes its absence a failure. Evals and benches use the same default.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface Reference {
  /** Path relative to the dev data directory, e.g. audio/jfk.wav. */
  audio: string;
  /** Absolute path. */
  path: string;
  channel: number;
  text: string;
}

/** Where the dev data is vendored in the repository. */
export const VENDORED_DEV_DATA = path.join(ROOT, 'test', 'fixtures', 'dev-data');

export function devDataDir(): string {
  return path.resolve(ROOT, process.env.SCRUBLINE_DEV_DATA || VENDORED_DEV_DATA);
}

/** The references, or null when the dev data is not here (and not required). */
export function loadReferences(): Reference[] | null {
  const dir = devDataDir();
  const file = path.join(dir, 'references.tsv');
  if (!fs.existsSync(file)) {
    if (process.env.SCRUBLINE_REQUIRE_DEV_DATA === '1') throw new Error(`dev data required but ${file} is missing`);
    return null;
  }
  const [header, ...rows] = fs.readFileSync(file, 'utf8').trim().split('\n');
  const cols = header.split('\t');
  const at = (name: string) => {
    const i = cols.indexOf(name);
    if (i < 0) throw new Error(`${file} has no ${name} column`);
    return i;
  };
  const [ia, ic, ir] = [at('audio'), at('channel'), at('reference')];
  return rows
    .filter((r) => r.trim() !== '')
    .map((row) => {
      const f = row.split('\t');
      return { audio: f[ia], path: path.join(dir, f[ia]), channel: Number(f[ic]), text: f[ir] };
    });
}

/** Reason to skip dev-data tests (for node:test's `skip`), or false. */
export function devDataSkip(): string | false {
  return loadReferences() === null ? `no dev data at ${devDataDir()} (set SCRUBLINE_DEV_DATA)` : false;
}

/** Regression bounds on the dev set's word error rate (measured: 17.7% overall at 16 kHz; README). */
export const WER_BOUNDS = { overall: 0.25, file: 0.6 } as const;
