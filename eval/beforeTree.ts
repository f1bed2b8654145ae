// The BEFORE side of eval/pii-turns.ts and bench/tagger-ab-isolated.ts: a copy of the detector at another git ref.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

/** BEFORE_REF, else where this branch left main (main itself moves on while a branch is worked on). */
export function beforeRef(): string {
  return process.env.BEFORE_REF ?? execFileSync('git', ['merge-base', 'HEAD', 'main'], { cwd: ROOT, encoding: 'utf8' }).trim().slice(0, 12);
}

/**
 * A copy of the tree at `ref` (src, scripts, eval), node_modules linked; made once per commit. A commit from before
 * the tagger's model left git (src/redact/tagger/model.json) carries its model; a later one has it trained there,
 * by that commit's own training code (scripts/pii-corpus/train.ts, about a minute, once per commit).
 */
export function treeAt(ref: string): string {
  const sha = execFileSync('git', ['rev-parse', ref], { cwd: ROOT, encoding: 'utf8' }).trim();
  const dir = path.join(os.tmpdir(), `scrubline-before-${sha.slice(0, 12)}`);
  if (!fs.existsSync(path.join(dir, 'done'))) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    const tar = execFileSync('git', ['archive', sha, 'src', 'scripts', 'eval', 'test/helpers', 'test/redact/heldout.data.ts', 'package.json'], { cwd: ROOT, maxBuffer: 1 << 30 });
    execFileSync('tar', ['-x', '-C', dir], { input: tar });
    fs.symlinkSync(fs.realpathSync(path.join(ROOT, 'node_modules')), path.join(dir, 'node_modules'));
    if (!fs.existsSync(path.join(dir, 'src', 'redact', 'tagger', 'model.json'))) {
      console.error(`training the tagger model of ${ref} in ${dir} (its scripts/pii-corpus/train.ts; about a minute, once)`);
      execFileSync(process.execPath, ['--import', 'tsx', path.join('scripts', 'pii-corpus', 'train.ts')], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
    }
    fs.writeFileSync(path.join(dir, 'done'), sha);
  }
  return dir;
}
