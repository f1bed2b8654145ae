// Detection in the tests of issue #32's shapes: written text and ASR words (tagger on), and the checks they share.
import assert from 'node:assert/strict';
import { detectText, detectWords } from '../../src/redact/detect.js';
import type { EntityKind } from '../../src/redact/entityKinds.js';

export type Found = { kind: string; text: string }[];
export const shown = (ds: Found): string => JSON.stringify(ds.map((d) => `${d.kind}: ${d.text}`));
/** Detections in ASR words (one string, split at spaces). */
export const said = (s: string, kinds?: EntityKind[]) => detectWords(s.split(' '), { tagger: true, kinds });
/** Detections in written text. */
export const written = (s: string, kinds?: EntityKind[]) => detectText(s, { tagger: true, kinds });

/** Exactly `value` is found, as `kind` (overlaps resolved: the label the caller sees). */
export function expectKind(cases: [string, EntityKind, string][], detect: (s: string) => Found): void {
  for (const [text, kind, value] of cases) {
    const found = detect(text);
    assert.ok(found.some((d) => d.kind === kind && d.text === value), `${text}: expected ${kind} "${value}", got ${shown(found)}`);
  }
}

/** Nothing of `kinds` is found (other kinds may be). */
export function expectNone(cases: [string, string[]][], detect: (s: string) => Found): void {
  for (const [text, kinds] of cases) {
    const found = detect(text).filter((d) => kinds.includes(d.kind));
    assert.deepEqual(found.map((d) => `${d.kind}: ${d.text}`), [], `${text}: no ${kinds.join('/')}`);
  }
}

/** No detection covers any of `values` (a number beside the PII stays readable). */
export function expectUnmasked(cases: [string, string[]][], detect: (s: string) => (Found[number] & { start: number; end: number })[]): void {
  for (const [text, values] of cases) {
    const found = detect(text);
    for (const v of values) {
      const at = text.indexOf(v);
      assert.ok(at >= 0, `${v} not in ${text}`);
      const over = found.filter((d) => d.start < at + v.length && at < d.end);
      assert.deepEqual(over.map((d) => `${d.kind}: ${d.text}`), [], `${text}: "${v}" masked`);
    }
  }
}

/** Every number kind: "none of these" for numbers that are no one's. */
export const ALL_NUMBERS: string[] = ['USSocialSecurityNumber', 'CreditCardNumber', 'PhoneNumber', 'ABARoutingNumber', 'USBankAccountNumber', 'CVV', 'ExpirationDate', 'ZipCode'];

type Spanned = (s: string) => (Found[number] & { start: number; end: number })[];

/** Every character of each value after the text (its first occurrence in it) lies inside some detection. */
export function expectMasked(cases: string[][], detect: Spanned): void {
  for (const [text, ...values] of cases) {
    const found = detect(text);
    for (const value of values) {
      const at = text.indexOf(value);
      assert.ok(at >= 0, `${value} not in ${text}`);
      for (let i = at; i < at + value.length; i++) {
        if (text[i] === ' ') continue;
        assert.ok(found.some((d) => d.start <= i && i < d.end), `${text}: "${value}" not wholly masked, got ${shown(found)}`);
      }
    }
  }
}

/** No character of `value` is masked as one of `kinds` (other kinds may cover it). */
export function expectNotKind(cases: [string, string, string[]][], detect: Spanned): void {
  for (const [text, value, kinds] of cases) {
    const at = text.indexOf(value);
    assert.ok(at >= 0, `${value} not in ${text}`);
    const hit = detect(text).filter((d) => kinds.includes(d.kind) && d.start < at + value.length && at < d.end);
    assert.deepEqual(hit.map((d) => `${d.kind}: ${d.text}`), [], `${text}: "${value}" masked as ${kinds.join('/')}`);
  }
}
