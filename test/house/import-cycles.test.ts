// The import graph of src/ has no cycle (scripts/import-cycles.ts; `import type` counts as an edge): a cycle is
// two layers that each depend on the other, which the source layout (docs/architecture.md) forbids.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { importCycles, importGraph } from '../../scripts/import-cycles.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

test('src/ has no import cycle', () => {
  const graph = importGraph(root);
  assert.ok(graph.size > 100, 'the graph holds the modules of src/');
  assert.deepEqual(importCycles(graph), []);
});

test('a cycle is found when there is one (type-only imports included)', () => {
  const graph = new Map([
    ['a', ['b']],
    ['b', ['c']],
    ['c', ['a']],
    ['d', ['d']],
    ['e', ['a']],
  ]);
  assert.deepEqual(importCycles(graph), [['a', 'b', 'c'], ['d']]);
});

test('the workers layer imports nothing from jobs/, api/ or cli/', () => {
  const upward = [...importGraph(root)].filter(([from]) => from.startsWith('src/workers/')).flatMap(([from, to]) => to.filter((t) => /^src\/(jobs|api|cli)\//.test(t)).map((t) => `${from} → ${t}`));
  assert.deepEqual(upward, []);
});
