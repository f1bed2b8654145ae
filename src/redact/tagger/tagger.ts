// The sequence tagger over a doc: BIO tags for Person and Address from the averaged perceptron (perceptron.ts)
// with the features of features.ts, decoded left to right; each B/I run becomes a detection. An I tag with no
// B before it starts a run (no word is dropped for an ill-formed sequence).
import type { EntityKind } from '../entityKinds.js';
import type { Doc } from '../recognizers/doc.js';
import { featuresInto, part, wordViews, type WordView } from './features.js';
import { ordinaryWord } from './model.js';
import { HashedWeights, type PerceptronModel } from './perceptron.js';

/**
 * The kinds the tagger is trained on: every kind of the corpus, so that it tells an email's or a phone number's
 * words from a name or a street ("did you send it to john dot smith at ..."); EMITTED_KINDS are those it reports.
 */
export const TAGGER_KINDS = ['Person', 'Address', 'Email', 'PhoneNumber', 'DateOfBirth', 'ZipCode', 'CreditCardNumber', 'USSocialSecurityNumber'] as const satisfies readonly EntityKind[];
export const EMITTED_KINDS: ReadonlySet<EntityKind> = new Set<EntityKind>(['Person', 'Address']);
export const TAGS = ['O', ...TAGGER_KINDS.flatMap((k) => [`B-${k}`, `I-${k}`])];
/** Each tag as a feature part (the previous tags are features). */
export const TAG_PARTS = TAGS.map(part);
/** Each tag read once: B/I/O and its kind. */
const PARSED = TAGS.map((t) => t.split('-') as [string, TaggedRun['kind'] | undefined]);

/** Text with no capital letter anywhere (speech, or typed in lower case): shape says nothing there. */
export const caseless = (doc: Doc) => doc.spoken || !/\p{Lu}/u.test(doc.text);

export interface TaggedRun {
  kind: (typeof TAGGER_KINDS)[number];
  wordStart: number;
  wordEnd: number;
  /** The smallest margin of the run's words (how sure the tagger was). */
  margin: number;
}

/**
 * Added to the Person tags' scores of a word that looks like a name (on a name list, no ordinary word; in written
 * text also capitalised): in sentence frames never seen in training the context says little, and the word's own
 * evidence must be able to carry it. Chosen on the dev split (eval/pii-corpus.ts), never on test.
 */
export const PERSON_BIAS = { caseless: 8, written: 8 };

const B_PERSON = TAGS.indexOf('B-Person');
const I_PERSON = TAGS.indexOf('I-Person');

/** Whether a word's own evidence says name: a name list, and no ordinary word. */
function nameEvidence(v: WordView): boolean {
  return v.gazNames.some((g) => g === 'fn' || g === 'ln' || g === 'hn') && !ordinaryWord(v.norm.s);
}

export class SequenceTagger {
  private readonly weights: HashedWeights;
  constructor(model: PerceptronModel) {
    this.weights = new HashedWeights(model);
  }

  /** Tag indices and margins of each word of the doc. */
  tag(doc: Doc): { tags: number[]; margins: number[] } {
    const lc = caseless(doc);
    const views = wordViews(doc, lc);
    const tags: number[] = [];
    const margins: number[] = [];
    const w = this.weights;
    const bias = lc ? PERSON_BIAS.caseless : PERSON_BIAS.written;
    for (let i = 0; i < views.length; i++) {
      w.reset();
      featuresInto(w, views, i, TAG_PARTS[tags[i - 1] ?? 0], TAG_PARTS[tags[i - 2] ?? 0]);
      if (bias && (lc || views[i].shape.s.startsWith('X')) && nameEvidence(views[i])) {
        // scores are in thousandths
        w.scores[B_PERSON] += bias * 1000;
        w.scores[I_PERSON] += bias * 1000;
      }
      const { tag, margin } = w.best();
      tags.push(tag);
      margins.push(margin);
    }
    return { tags, margins };
  }

  runs(doc: Doc): TaggedRun[] {
    const { tags, margins } = this.tag(doc);
    return runsOf(tags, margins);
  }
}

/** B/I runs of tag indices (TAGS order) as word ranges. */
export function runsOf(tags: readonly number[], margins?: readonly number[]): TaggedRun[] {
  const out: TaggedRun[] = [];
  let open: TaggedRun | undefined;
  for (let i = 0; i <= tags.length; i++) {
    const [bio, kind] = i < tags.length ? PARSED[tags[i]] : PARSED[0];
    if (open && (bio !== 'I' || kind !== open.kind)) {
      out.push(open);
      open = undefined;
    }
    if (kind && !open) open = { kind, wordStart: i, wordEnd: i + 1, margin: margins?.[i] ?? 0 };
    else if (kind && open) {
      open.wordEnd = i + 1;
      open.margin = Math.min(open.margin, margins?.[i] ?? 0);
    }
  }
  return out;
}
