// Where `scrubline transcribe` writes each recording's transcripts: its name without the extension, in --out. Two
// recordings of one name (calls/monday/call.wav and calls/tuesday/call.wav, or call.wav and call.mp3) would
// write one file over the other, so those keep the folders that tell them apart (monday/call, tuesday/call), and
// the extension when only that differs (call.wav, call.mp3). Names are compared without letter case, as a
// case-insensitive disk would.
import path from 'node:path';

const key = (name: string) => name.toLowerCase();

/** The folder all of `files` are in (the longest common one). */
function commonFolder(files: string[]): string {
  const parts = files.map((file) => path.dirname(path.resolve(file)).split(path.sep));
  const common: string[] = [];
  for (let i = 0; parts.every((p) => i < p.length && p[i] === parts[0][i]); i++) common.push(parts[0][i]);
  return common.join(path.sep) || path.sep;
}

/**
 * The output base name (relative to --out, no extension) of each recording, distinct for distinct recordings.
 * Throws, naming them, when two recordings still could not be told apart (nothing is written then).
 */
export function outputNames(files: string[]): Map<string, string> {
  const plain = (file: string) => path.basename(file, path.extname(file));
  const byName = new Map<string, string[]>();
  for (const file of files) byName.set(key(plain(file)), [...(byName.get(key(plain(file))) ?? []), file]);
  const names = new Map<string, string>();
  for (const group of byName.values()) {
    if (group.length === 1) {
      names.set(group[0], plain(group[0]));
      continue;
    }
    const root = commonFolder(group);
    const relative = (file: string) => path.relative(root, path.resolve(file));
    const withoutExtension = group.map((file) => { const r = relative(file); return r.slice(0, r.length - path.extname(r).length); });
    const distinct = new Set(withoutExtension.map(key)).size === group.length;
    group.forEach((file, i) => names.set(file, distinct ? withoutExtension[i] : relative(file)));
  }
  const seen = new Map<string, string>();
  for (const [file, name] of names) {
    const other = seen.get(key(name));
    if (other !== undefined) throw new Error(`${other} and ${file} would both be written as ${name}: rename one, or transcribe them into different --out folders.`);
    seen.set(key(name), file);
  }
  return names;
}
