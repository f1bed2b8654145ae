// Where detection's time goes, before (another git ref) and after (this tree), in one process: CPU milliseconds per
// pass of the generated dev split for each recognizer run alone and for detectAll (every default recognizer and the
// steps that join them; overlaps not resolved), ASR or written form, tagger on. "= detectAll" runs on each doc
// right after every recognizer has read it alone (what a doc remembers, caseless.ts, digitRuns.ts, is there then);
// "= detectAll, new doc" on docs built afresh, as a request's are. Trees alternate, 3 measured passes
// each after one warm-up; a machine whose speed moves shows in the spread between repeated runs, so run it twice.
//
//   BEFORE_REF=7fa9da7 [ALSO_REF=<another ref>] npx tsx bench/detect-stages.ts [asr|written]
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { generate } from '../scripts/pii-corpus/generate.js';
import { beforeRef, treeAt } from '../eval/beforeTree.js';

type DetectModule = typeof import('../src/redact/detect.js');
type DocModule = typeof import('../src/redact/recognizers/doc.js');

const form = process.argv[2] === 'written' ? 'written' : 'asr';
const corpus = generate('dev');
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function load(root: string): Promise<{ det: DetectModule; doc: DocModule }> {
  const at = (p: string) => pathToFileURL(path.join(root, 'src', 'redact', p)).href;
  return { det: (await import(at('detect.ts'))) as DetectModule, doc: (await import(at(path.join('recognizers', 'doc.ts')))) as DocModule };
}

/** CPU ms per pass: each recognizer alone, and detectAll. */
function stages({ det, doc }: { det: DetectModule; doc: DocModule }, passes: number, into: Map<string, number>): void {
  const build = () => corpus.map((u) => (form === 'asr' ? doc.docFromWords(u.asr.words, { tagger: true }) : doc.docFromText(u.written.text, { tagger: true })));
  const docs = build();
  for (let p = 0; p < passes; p++) {
    // detectAll on docs no recognizer has read yet (what a request pays: nothing a doc remembers is there yet)
    for (const d of build()) {
      const t0 = cpuMs();
      det.detectAll(d);
      into.set('= detectAll, new doc', (into.get('= detectAll, new doc') ?? 0) + cpuMs() - t0);
    }
    for (const d of docs) {
      for (const r of det.RECOGNIZERS) {
        const t0 = cpuMs();
        r.run(d);
        into.set(r.name, (into.get(r.name) ?? 0) + cpuMs() - t0);
      }
      const t0 = cpuMs();
      det.detectAll(d);
      into.set('= detectAll', (into.get('= detectAll') ?? 0) + cpuMs() - t0);
    }
  }
}

const ref = beforeRef();
// ALSO_REF: a third tree measured in the same run (main's head, say), between the two
const also = process.env.ALSO_REF;
const trees = [
  { name: ref, mod: await load(treeAt(ref)) },
  ...(also ? [{ name: also, mod: await load(treeAt(also)) }] : []),
  { name: 'this tree', mod: await load(path.resolve(import.meta.dirname, '..')) },
];
for (const t of trees) stages(t.mod, 1, new Map()); // warm-up
const times = trees.map(() => new Map<string, number>());
const PASSES = 3;
for (let p = 0; p < PASSES; p++) trees.forEach((t, i) => stages(t.mod, 1, times[i]));
const last = times[times.length - 1];
const names = [...last.keys()].sort((a, b) => (last.get(b) ?? 0) - (last.get(a) ?? 0));
console.log(`CPU ms per pass of the generated dev split (${corpus.length} turns, ${form}), ${PASSES} passes each, alternating`);
console.log(`${'stage'.padEnd(22)} ${trees.map((t) => t.name.padStart(12)).join(' ')}`);
for (const n of names) console.log(`${n.padEnd(22)} ${times.map((m) => ((m.get(n) ?? NaN) / PASSES).toFixed(1).padStart(12)).join(' ')}`);
