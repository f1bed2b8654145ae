// Email addresses: written (john.smith@example.com) and spoken ("john dot smith at example dot com",
// "j smith at gmail dot com", "john underscore smith at yahoo dot co dot uk", "k dash patel at company dash name dot
// co dot uk", "jdoe one nine eight five at yahoo dot com", "john at the rate gmail dot com", "mary jones at gmail").
import { fromChars, fromWords, type Recognizer } from './doc.js';
import type { Detection } from '../types.js';

const LOCAL = /[A-Za-z0-9._%+-]/;
const DOMAIN = /[A-Za-z0-9.-]/;
const ALPHA = /[A-Za-z]/;
/** How far the spoken form is followed from "at" (words): a spoken address is short. */
const SPOKEN_REACH = 24;

/**
 * Written addresses, as /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/ would find them, but anchored on each "@"
 * and read outwards: that regex retries every start in a long run of letters, quadratic on a long word.
 */
function writtenEmails(text: string): [number, number][] {
  const out: [number, number][] = [];
  let floor = 0;
  for (let at = text.indexOf('@'); at >= 0; at = text.indexOf('@', at + 1)) {
    let start = at;
    while (start > floor && LOCAL.test(text[start - 1])) start--;
    if (start === at) continue;
    let reach = at + 1;
    while (reach < text.length && DOMAIN.test(text[reach])) reach++;
    // The last "." (after at least one domain character) followed by two letters or more.
    let end = -1;
    for (let dot = reach - 1; dot > at + 1 && end < 0; dot--) {
      if (text[dot] !== '.' || !ALPHA.test(text[dot + 1] ?? '') || !ALPHA.test(text[dot + 2] ?? '')) continue;
      end = dot + 1;
      while (end < reach && ALPHA.test(text[end])) end++;
    }
    if (end < 0) continue;
    out.push([start, end]);
    floor = end;
  }
  return out;
}
/** Top-level domains said after "dot": the common generic ones and every country code. */
export const TLD = new Set([
  ...'com net org edu gov mil int io co info biz me app dev ai tv ly xyz online site shop store tech cloud email live news blog pro name mobi asia'.split(' '),
  ...`ac ad ae af ag al am ao ar as at au aw az ba bb bd be bf bg bh bi bj bm bn bo br bs bt bw by bz ca cd cf cg ch ci ck cl
  cm cn cr cu cv cy cz de dj dk dm do dz ec ee eg es et eu fi fj fm fo fr ga gd ge gh gi gl gm gn gr gt gy hk hn hr ht hu id ie
  il im in iq ir is it je jm jo jp ke kg kh kr kw ky kz la lb lc li lk lr ls lt lu lv ma mc md mg mk ml mm mn mo mt mu mv mw mx
  my mz na ne ng ni nl no np nz om pa pe pg ph pk pl pr ps pt py qa ro rs ru rw sa sc se sg si sk sn so sr sv sy sz td tg th
  tj tn to tr tt tw tz ua ug uk us uy uz va vc ve vn ws ye za zm zw`.split(/\s+/),
]);
/** Mail providers said without their ending ("john smith at gmail"). */
/** Newer endings small businesses take ("quill and fern dot studio"): an ending after "dot", and still a label's word. */
const NEW_ENDINGS: ReadonlySet<string> = new Set(
  'studio design agency art law health family work company team group media digital solutions services consulting photography church school academy club life world today space farm coffee bakery dental clinic realty homes travel'.split(' '),
);
const PROVIDERS = new Set(['gmail', 'googlemail', 'yahoo', 'hotmail', 'outlook', 'aol', 'icloud', 'protonmail', 'proton', 'msn', 'comcast', 'verizon', 'att', 'sbcglobal', 'live', 'mail', 'gmx', 'yandex', 'zoho']);
const CONNECT = new Set(['dot', 'underscore', 'dash', 'hyphen', 'period', 'point', 'minus']);
const DOTS = new Set(['dot', 'period', 'point']);
const JOIN = new Set(['dash', 'hyphen', 'underscore', 'minus']);
const DIGIT_WORD = /^(zero|oh|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|double|triple)$/;
const STOP = new Set([
  'is', 'my', 'email', 'e-mail', 'mail', 'address', 'the', 'at', 'to', 'me', 'send', 'it', "it's", 'its', 'and', 'or',
  'please', 'you', 'can', "that's", 'thats', 'was', 'it', 'uh', 'um', 'your', 'a', 'an', 'of', 'on', 'for', 'use', 'us',
  'reach', 'contact', 'i', 'we', 'be', 'would', 'will', 'so', 'yes', 'yeah', 'ok', 'okay', 'sure', 'from', 'with', 'by',
  "i'm", 'im', "we're", "they're", "you're", 'here', 'there', 'rate', 'sign', 'symbol', 'go', 'visit', 'website', 'site', 'web', 'page', 'online', 'www',
]);
/** Stop words that go on a label already begun: "fast mail", "proton mail" said as two words. */
const LABEL_MORE: ReadonlySet<string> = new Set(['mail']);
const piece = (w: string | undefined) => w !== undefined && /^[a-z0-9][a-z0-9'-]*$/.test(w) && !DOTS.has(w) && !JOIN.has(w) && !STOP.has(w);
/** Words one label may be said in ("smith family dot com"). */
const LABEL_WORDS = 3;

/** An ending no list holds (there are over a thousand: "dot frl", "dot amsterdam"): letters only, as endings are. */
const ANY_ENDING = /^[a-z]{2,12}$/;

/**
 * A spoken domain starting at word j ("gmail dot com", "company dash name dot co dot uk", a written "gmail.com"),
 * as the index after it, or -1. Labels may be joined by dash/underscore; the last must be a known ending, or with
 * `anyEnding` any word of letters.
 */
export function spokenDomainEnd(w: readonly string[], j: number, reach = SPOKEN_REACH, anyEnding = false): number {
  if (/^[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/.test(w[j] ?? '')) return j + 1;
  // letters spelled one by one ("haddad c p a", "dot i l", "dot c a"): "a" and "i" too, beside another letter
  const letter = (x: string | undefined) => x !== undefined && x.length === 1 && x >= 'a' && x <= 'z';
  const spelled = (k: number) => letter(w[k]) && (letter(w[k + 1]) || letter(w[k - 1]) || DOTS.has(w[k + 1] ?? ''));
  const labelStart = (k: number) => piece(w[k]) || spelled(k);
  let end = -1;
  let k = j;
  while (k < w.length && k - j < reach) {
    // one label: pieces said together or joined by dash/underscore ("and" between two: "quill and fern dot studio")
    if (!labelStart(k)) break;
    k++;
    for (let words = 1; words < LABEL_WORDS * 2; words++) {
      if (JOIN.has(w[k] ?? '') && piece(w[k + 1])) k += 2;
      else if (letter(w[k]) && letter(w[k - 1]) && k - j < reach) {
        k++;
        words--;
      } else if ((piece(w[k]) || LABEL_MORE.has(w[k] ?? '')) && !TLD.has(w[k]) && words < LABEL_WORDS) k++;
      else if (w[k] === 'and' && piece(w[k + 1]) && !TLD.has(w[k + 1]) && words < LABEL_WORDS && DOTS.has(w[k + 2] ?? '')) k += 2;
      else break;
    }
    // an ending that is also a word ("dot us", "dot in", "dot me") ends the domain: no label follows it
    if (!DOTS.has(w[k] ?? '') || !(labelStart(k + 1) || TLD.has(w[k + 1] ?? ''))) break;
    if (TLD.has(w[k + 1]) || NEW_ENDINGS.has(w[k + 1]) || (anyEnding && ANY_ENDING.test(w[k + 1]))) end = k + 2;
    else {
      // an ending spelled ("dot c a"): its letters, and no more of them
      let e = k + 1;
      let t = '';
      while (letter(w[e]) && t.length < 3) t += w[e++];
      if (t.length >= 2 && !letter(w[e]) && TLD.has(t)) end = e;
    }
    if (!labelStart(k + 1)) break;
    k++;
  }
  return end;
}

/** Where "at" is said between the local part and the domain: "at", "at sign", "at the rate (of)". */
function atSign(w: readonly string[], i: number): number | undefined {
  if (w[i] !== 'at') return undefined;
  if (w[i + 1] === 'sign' || w[i + 1] === 'symbol') return i + 2;
  if (w[i + 1] === 'the' && w[i + 2] === 'rate') return w[i + 3] === 'of' ? i + 4 : i + 3;
  return i + 1;
}

export const emailRecognizer: Recognizer = (doc) => {
  const out: Detection[] = [];
  for (const [start, end] of writtenEmails(doc.text)) out.push(fromChars(doc, 'Email', start, doc.text[end - 1] === '.' ? end - 1 : end, 0.95, 'email'));
  const w = doc.words.map((x) => x.norm);
  const loose = doc.spoken || !/\p{Lu}/u.test(doc.text);
  for (let i = 1; i < w.length - 1; i++) {
    const j = atSign(w, i);
    if (j === undefined) continue;
    let end = spokenDomainEnd(w, j);
    let c = 0.9;
    if (end < 0 && PROVIDERS.has(w[j] ?? '') && !DOTS.has(w[j + 1] ?? '')) {
      end = j + 1;
      c = 0.8;
    }
    // an ending on no list, only where the address is unmistakably one: a dash, underscore or dot said in it
    // ("yvette dash mckenzie at parched dash petal dot frl"); "at home dot" is not
    let unlisted = false;
    if (end < 0) {
      end = spokenDomainEnd(w, j, SPOKEN_REACH, true);
      unlisted = end >= 0;
      c = 0.8;
    }
    if (end < 0) continue;
    // local part: the word before "at", extended backwards over connectors and what they join, single letters,
    // digits and number words, and at most two more plain words
    let s = i - 1;
    if (STOP.has(w[s]) && !/^[a-z]$/.test(w[s])) continue;
    let plain = 0;
    // an initial said before a surname ("my lawyer t brandt at ..."): the word before it is no part of the address
    let initial = false;
    while (s - 1 >= 0 && i - s < SPOKEN_REACH) {
      const prev = w[s - 1];
      if (CONNECT.has(prev) && s - 2 >= 0 && !STOP.has(w[s - 2])) {
        s -= 2;
        initial = false;
        continue;
      }
      if ((/^[a-z]$|^\d+$/.test(prev) || DIGIT_WORD.test(prev)) && prev !== 'a' && prev !== 'i') {
        s -= 1;
        initial = /^[a-z]$/.test(prev) && s + 1 < i;
        continue;
      }
      if (!STOP.has(prev) && !initial && plain < (c < 0.9 ? 1 : 2) && !CONNECT.has(prev) && loose) {
        plain++;
        s -= 1;
        continue;
      }
      break;
    }
    if (unlisted && !w.slice(s, end - 2).some((x) => CONNECT.has(x))) continue;
    out.push(fromWords(doc, 'Email', s, end, c, 'email'));
    i = end - 1;
  }
  return out;
};
