// The README and docs/ point only inside the repository, and every pointer lands: each relative link names a file
// that exists and, with a #fragment, a heading of that file (GitHub's slugs). Nothing cites the interface's
// private numbering ("resource 19") or a folder a clone does not have (../shared).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const DOCS = ['README.md', 'CHANGELOG.md', ...fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N} -]/gu, '')
    .replace(/ /g, '-');
}

function anchors(file: string): Set<string> {
  const text = fs.readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1])));
}

test('every relative link of the README and docs/ lands on a file and a heading', () => {
  const broken: string[] = [];
  for (const doc of DOCS) {
    const text = fs.readFileSync(path.join(ROOT, doc), 'utf8').replace(/```[\s\S]*?```/g, '');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target)) continue; // http(s), mailto
      const [file, fragment] = target.split('#');
      const resolved = file ? path.resolve(path.dirname(path.join(ROOT, doc)), file) : path.join(ROOT, doc);
      if (!resolved.startsWith(ROOT + path.sep)) broken.push(`${doc}: ${target} (outside the repository)`);
      else if (!fs.existsSync(resolved)) broken.push(`${doc}: ${target} (no such file)`);
      else if (fragment && resolved.endsWith('.md') && !anchors(resolved).has(fragment)) broken.push(`${doc}: ${target} (no such heading)`);
    }
  }
  assert.deepEqual(broken, []);
});

test('nothing points outside the repository or cites the interface by resource number', () => {
  for (const doc of DOCS) {
    const text = fs.readFileSync(path.join(ROOT, doc), 'utf8');
    assert.doesNotMatch(text, /\.\.\/shared|shared\/spec|shared\/data/, doc);
    assert.doesNotMatch(text, /\bresources? \d+\b/i, doc);
  }
});

test('the README stays a short guide', () => {
  assert.ok(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8').split('\n').length <= 300);
});
