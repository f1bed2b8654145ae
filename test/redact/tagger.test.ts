// The statistical tagger and the generated corpus it is trained on (scripts/pii-corpus/, src/redact/tagger/):
// the corpus is deterministic and its splits kept apart (test families and names never in training), the model
// (generated at install, not in git) is as new as its inputs and a service without it says how to build it, and on the held-apart test split per-kind recall, precision and over-masking stay
// above bounds set a little under what was measured (eval/pii-corpus.ts; README "Accuracy"). The failures the
// issue named are cases here.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { generate, hasPii, namePools } from '../../scripts/pii-corpus/generate.js';
import { inputsHash, MODEL_PATH, modelInputsHash } from '../../scripts/pii-corpus/inputs.js';
import { FAMILIES } from '../../scripts/pii-corpus/templates.js';
import { scoreCorpus } from '../../eval/pii-corpus.js';
import { detectText, detectWords } from '../../src/redact/detect.js';
import { MODEL_FILE, requireTaggerModel, TaggerModelMissingError, taggerModel } from '../../src/redact/tagger/model.js';
import { docFromText, docFromWords } from '../../src/redact/recognizers/doc.js';
import { featuresAt, featuresInto, hashOf, part, wordViews } from '../../src/redact/tagger/features.js';
import { HashedWeights, Perceptron } from '../../src/redact/tagger/perceptron.js';
import { caseless, runsOf, TAG_PARTS, TAGS } from '../../src/redact/tagger/tagger.js';

test('the corpus is a function of its seed, in both forms, with gold spans on the values', () => {
  const a = generate('test', { pii: 40, noPii: 10, seed: 99, fresh: true });
  const b = generate('test', { pii: 40, noPii: 10, seed: 99, fresh: true });
  assert.deepEqual(a, b);
  assert.notDeepEqual(a, generate('test', { pii: 40, noPii: 10, seed: 98, fresh: true }));
  for (const u of a) {
    const asr = u.asr.words.join(' ');
    assert.equal(asr, asr.toLowerCase());
    assert.doesNotMatch(asr, /[0-9.,?!]/, asr);
    assert.equal(u.written.gold.length, u.asr.gold.length);
    for (const g of u.written.gold) assert.match(u.written.text.slice(g.start, g.end), /^[\p{L}\p{N}+(]/u);
    for (const g of u.asr.gold) assert.match(asr.slice(g.start, g.end), /^[\p{L}\p{N}][^ ]*( [^ ]+)*$/u);
  }
  assert.equal(a.filter((u) => !hasPii(u)).length, 10);
});

test('test families and names are never seen in training', () => {
  const train = new Set(FAMILIES.train.map((f) => f.text));
  for (const f of [...FAMILIES.dev, ...FAMILIES.test]) assert.ok(!train.has(f.text), f.text);
  const pools = namePools();
  const trainNames = new Set([...pools.train.first, ...pools.train.last].map((x) => x.toLowerCase()));
  for (const n of [...pools.test.first, ...pools.test.last]) assert.ok(!trainNames.has(n.toLowerCase()), n);
  const trainStreets = new Set(pools.train.places.map((p) => p.street.toLowerCase()));
  for (const p of pools.test.places) assert.ok(!trainStreets.has(p.street.toLowerCase()), p.street);
  assert.ok(pools.test.first.some((n) => /[^\x00-\x7f]/.test(n)), 'non-ASCII names in the test split');
});

test('the model present was built from the current inputs (./run build trains it when not)', () => {
  const model = taggerModel();
  assert.equal(model.inputsHash, inputsHash(), 'tagger model is stale: run ./run build (or npm run tagger:train)');
  // the install's check reads the hash from the head of the file, the same as the whole file says
  assert.equal(modelInputsHash(), model.inputsHash);
  assert.equal(MODEL_PATH, MODEL_FILE);
  assert.deepEqual(model.tags, TAGS);
  assert.ok(Object.keys(model.weights).length < 100_000);
});

test("the install's model step leaves a model built from the current inputs as it is", () => {
  assert.equal(modelInputsHash(), inputsHash(), 'tagger model is stale: run ./run build (or npm run tagger:train)');
  const before = fs.statSync(MODEL_FILE).mtimeMs;
  const root = path.resolve(import.meta.dirname, '..', '..');
  const said = execFileSync(process.execPath, ['--import', 'tsx', path.join(root, 'scripts', 'pii-corpus', 'ensure-model.ts')], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  assert.equal(said, '');
  assert.equal(fs.statSync(MODEL_FILE).mtimeMs, before);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scrubline-model-'));
  try {
    // a model without a hash at its head (absent, or not one train.ts wrote) is built again
    assert.equal(modelInputsHash(path.join(dir, 'model.json')), undefined);
    fs.writeFileSync(path.join(dir, 'model.json'), '{"tags":[]}');
    assert.equal(modelInputsHash(path.join(dir, 'model.json')), undefined);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('without the model, detection and the service refuse, naming the command that builds it', () => {
  const missing = path.join(os.tmpdir(), 'scrubline-no-such-dir', 'model.json');
  assert.throws(() => requireTaggerModel(missing), (e: Error) => e instanceof TaggerModelMissingError && e.message.includes(missing) && e.message.includes('./run build'));
  assert.doesNotThrow(() => requireTaggerModel());
});

test('decoding on hashed features scores exactly as the feature strings the model was trained on', () => {
  const model = taggerModel();
  const strings = new Perceptron(TAGS, model);
  const hashed = new HashedWeights(model);
  let words = 0;
  for (const u of generate('dev', { pii: 60, noPii: 20, seed: 5, fresh: true })) {
    for (const doc of [docFromText(u.written.text), docFromWords(u.asr.words)]) {
      const v = wordViews(doc, caseless(doc));
      for (let i = 0; i < v.length; i++) {
        const prev = TAG_PARTS[(i * 7) % TAGS.length];
        const prev2 = TAG_PARTS[(i * 3) % TAGS.length];
        hashed.reset();
        featuresInto(hashed, v, i, prev, prev2);
        const want = strings.scores(featuresAt(v, i, prev, prev2));
        for (let t = 0; t < TAGS.length; t++) assert.ok(Math.abs(want[t] - hashed.scores[t] / 1000) < 1e-9, `${doc.text} @${i}`);
        words++;
      }
    }
  }
  assert.ok(words > 1000);
  // the model's own feature names hash to what the parts give
  assert.deepEqual(hashOf('t1w=B-Person|smith'), (() => {
    const p = part('t1w=B-Person|smith');
    return [p.h1, p.h2];
  })());
});

test('B/I runs become word ranges; an I with no B starts a run', () => {
  const t = (s: string) => TAGS.indexOf(s);
  const runs = runsOf([t('O'), t('B-Person'), t('I-Person'), t('I-Address'), t('O'), t('I-Person')]);
  assert.deepEqual(runs.map((r) => [r.kind, r.wordStart, r.wordEnd]), [['Person', 1, 3], ['Address', 3, 4], ['Person', 5, 6]]);
});

test('per-kind recall, precision and over-masking on the held-apart test split', () => {
  const result = scoreCorpus(generate('test'));
  // measured (tuned on dev and the probe pool; test run once, after; README): written / ASR recall Person 99.3 /
  // 92.1 (precision 88.8 / 90.5), Address 92.2 / 95.7, card 99.0 / 99.0, SSN 100 / 100, phone 100 / 100; micro
  // 97.5 / 96.2 (precision 95.8 / 96.4); over-masking 0.9 / 1.8 per 1,000. Bounds a little under (README
  // "Personal data in contact-center talk the detector has never seen").
  const bounds: Record<string, { written: number; asr: number }> = {
    Person: { written: 0.97, asr: 0.9 },
    Address: { written: 0.9, asr: 0.93 },
    CreditCardNumber: { written: 0.98, asr: 0.98 },
    USSocialSecurityNumber: { written: 0.98, asr: 0.98 },
    PhoneNumber: { written: 0.98, asr: 0.98 },
  };
  for (const [kind, b] of Object.entries(bounds)) {
    const s = result.kinds.get(kind as never)!;
    assert.ok(s.written.gold >= 50 && s.asr.gold >= 50, `${kind}: too few gold spans`);
    assert.ok(s.written.recall >= b.written, `${kind} written recall ${s.written.recall.toFixed(3)}`);
    assert.ok(s.asr.recall >= b.asr, `${kind} ASR recall ${s.asr.recall.toFixed(3)}`);
  }
  const person = result.kinds.get('Person')!;
  assert.ok(person.written.precision >= 0.87 && person.asr.precision >= 0.88, `Person precision ${person.written.precision.toFixed(3)} / ${person.asr.precision.toFixed(3)}`);
  for (const form of ['written', 'asr'] as const) {
    assert.ok(result.micro[form].recall >= { written: 0.96, asr: 0.95 }[form], `${form} micro recall ${result.micro[form].recall.toFixed(3)}`);
    assert.ok(result.micro[form].precision >= 0.95, `${form} micro precision ${result.micro[form].precision.toFixed(3)}`);
    assert.ok(result.overMask[form] <= 3, `${form} over-masking ${result.overMask[form].toFixed(1)} per 1,000`);
  }
  assert.ok(result.noPiiTurns >= 2000);
});

test('the tagger only adds: detection with it covers everything the rules beside it cover', () => {
  // The rules beside it: with the tagger off, compromise's people() runs too (person.ts), with it on not; the
  // tagger and the cues took its place, measured on the dev split (README).
  for (const u of generate('dev', { pii: 150, noPii: 50, seed: 7, fresh: true })) {
    const covered = (ds: { start: number; end: number }[], at: number) => ds.some((d) => d.start <= at && at < d.end);
    const on = detectText(u.written.text, { tagger: true });
    const off = detectText(u.written.text, { tagger: false, personSources: { compromise: false } });
    for (const d of off) for (let c = d.start; c < d.end; c++) if (/\S/.test(u.written.text[c])) assert.ok(covered(on, c), `${u.written.text} @${c}`);
  }
});

test('the failures the issue named', () => {
  const persons = (t: string) => detectText(t, { kinds: ['Person'], tagger: true }).map((d) => d.text);
  const personsW = (t: string) => detectWords(t.split(' '), { kinds: ['Person'], tagger: true }).map((d) => d.text);
  const covers = (found: string[], name: string) => found.some((x) => x.includes(name));
  // a name after a title: the name is masked, not only the title
  assert.ok(covers(persons('Could I speak with Mr. Okonkwo please?'), 'Okonkwo'));
  assert.ok(covers(personsW('could i speak with mister okonkwo please'), 'okonkwo'));
  // names that are ordinary words, after a cue
  assert.ok(covers(persons('My name is Will Turner.'), 'Will'));
  assert.ok(covers(personsW('my name is may chen'), 'may'));
  // non-ASCII and hyphenated names
  assert.ok(covers(persons("Hello, it's Nguyễn Thị Hương calling about my account."), 'Hương'));
  assert.ok(covers(persons('The account is under Jean-Baptiste Kowalczyk.'), 'Kowalczyk'));
  assert.ok(covers(personsW('the account is under józef wiśniewski'), 'wiśniewski'));
  // a street address never seen in training, both forms
  const addr = detectText('I moved, the new address is 4417 Adebayo Crescent, Lekki.', { kinds: ['Address'], tagger: true }).map((d) => d.text);
  assert.ok(covers(addr, 'Adebayo'), JSON.stringify(addr));
  const addrW = detectWords('i moved the new address is forty four seventeen adebayo crescent'.split(' '), { kinds: ['Address'], tagger: true }).map((d) => d.text);
  assert.ok(covers(addrW, 'adebayo'), JSON.stringify(addrW));
  // no person in ordinary talk
  assert.deepEqual(persons("I'm leaving from Boston on Friday."), []);
  assert.deepEqual(personsW('i will call back later if that is okay'), []);
});

test('ordinary words and streets are not names (precision on talk never seen)', () => {
  const persons = (t: string) => detectText(t, { kinds: ['Person'], tagger: true }).map((d) => d.text);
  const personsW = (t: string) => detectWords(t.split(' '), { kinds: ['Person'], tagger: true }).map((d) => d.text);
  // common nouns of the trade, said (the tagger took "payment", "ticket" for names in unseen frames)
  assert.deepEqual(personsW('the payment ticket was closed by mistake'), []);
  assert.deepEqual(personsW('the payment posted but the ticket is still pending'), []);
  assert.deepEqual(personsW('the grace period is ten days after the due date'), []);
  assert.deepEqual(persons('The grace period is 10 days after the due date.'), []);
  // a cue word that ends a sentence does not make the next sentence's first word a name
  assert.deepEqual(persons('Okay, thanks. Billing zip is 35010.'), []);
  // a street named after a person is an address, and stays masked as one
  for (const t of ['Can you send it to 527 Justin Meadow?', 'Billing goes to 31 Cameron Circuit and shipping to my office.']) {
    assert.deepEqual(persons(t), [], t);
    const all = detectText(t, { tagger: true });
    assert.ok(all.some((d) => d.kind === 'Address' && /Meadow|Circuit/.test(d.text)), JSON.stringify(all));
  }
  assert.deepEqual(personsW('can you send it to thirty one cameron circuit'), []);
  // a name with a street word but no house number stays a name
  assert.ok(persons('My name is Tom Hill.').some((x) => x.includes('Hill')));
  assert.ok(personsW('my name is mary lane').some((x) => x.includes('mary')));
  // a language is no name (a campaign description "..., English" was masked as [PERSON])
  assert.deepEqual(persons('Inbound card servicing and disputes, English'), []);
  assert.deepEqual(persons('Language: English. Calls in Spanish are transferred.'), []);
  assert.deepEqual(personsW('do you want to continue in english or spanish'), []);
  // ... while the surname after a cue is still a name
  assert.ok(persons('My name is Laura English.').some((x) => x.includes('English')), 'a surname after a name cue');
});
