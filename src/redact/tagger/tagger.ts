// The sequence tagger over a doc: BIO tags for Person and Address from the averaged perceptron (perceptron.ts)
// with the features of features.ts, decoded left to right; each B/I run becomes a detection. An I tag with no
// B before it starts a run (no word is dropped for an ill-formed sequence).
import type { EntityKind } from '../entityKinds.js';
import type { Doc } from '../recognizers/doc.js';
import { featuresAt, wordViews } from './features.js';
import { Perceptron, type PerceptronModel } from './perceptron.js';

/**
 * The kinds the tagger is trained on: every kind of the corpus, so that it tells an email's or a phone number's
 * words from a name or a street ("did you send it to john dot smith at ..."); EMITTED_KINDS are those it reports.
 */
export const TAGGER_KINDS = ['Person', 'Address', 'Email', 'PhoneNumber', 'DateOfBirth', 'ZipCode', 'CreditCardNumber', 'USSocialSecurityNumber'] as const satisfies readonly EntityKind[];
export const EMITTED_KINDS: ReadonlySet<EntityKind> = new Set<EntityKind>(['Person', 'Address']);
export const TAGS = ['O', ...TAGGER_KINDS.flatMap((k) => [`B-${k}`, `I-${k}`])];

/** Text with no capital letter anywhere (speech, or typed in lower case): shape says nothing there. */
export const caseless = (doc: Doc) => doc.spoken || !/\p{Lu}/u.test(doc.text);

export interface TaggedRun {
  kind: (typeof TAGGER_KINDS)[number];
  wordStart: number;
  wordEnd: number;
  /** The smallest margin of the run's words (how sure the tagger was). */
  margin: number;
}

export class SequenceTagger {
  readonly perceptron: Perceptron;
  constructor(model?: PerceptronModel) {
    this.perceptron = new Perceptron(TAGS, model);
  }

  /** Tag indices and margins of each word of the doc. */
  tag(doc: Doc): { tags: number[]; margins: number[] } {
    const views = wordViews(doc, caseless(doc));
    const tags: number[] = [];
    const margins: number[] = [];
    for (let i = 0; i < views.length; i++) {
      const { tag, margin } = this.perceptron.best(featuresAt(views, i, TAGS[tags[i - 1] ?? 0] ?? 'O', TAGS[tags[i - 2] ?? 0] ?? 'O'));
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
    const t = i < tags.length ? TAGS[tags[i]] : 'O';
    const [bio, kind] = t.split('-') as [string, TaggedRun['kind'] | undefined];
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
