// Issue #32, round 6, review of the number filters: the leaks they opened, closed. "this call" is no phone's cue
// only as a noun right before the number ("for this call is ..."), never before "from/to/into/with" or a bare phone;
// a letter code of 10-12 digits after "policy"/"claim"/"case" keeps its SSN reading (the drop was taken out); an
// itinerary's or an NDC's cue names only the number right after it, never a phone's shape or an SSN's length; a
// card-length "reference" keeps its card when a card is inside it and its SSN/phone readings when groups split it;
// a second version with a host's octets or a network named after it stays an address. Each beside the drop it
// keeps. Written and said (ASR form). Values made up.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ALL_NUMBERS, expectNone, said, shown, written } from '../helpers/detections.js';

const D = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
/** The ASR form of a written line: digits one by one, "dot" for a dot between digits, no punctuation. */
function spoken(line: string): string {
  return line
    .toLowerCase()
    .replace(/(\d)\.(?=\d)/g, '$1 dot ')
    .replace(/\d/g, (d) => ` ${D[Number(d)]} `)
    .replace(/[^\p{L}\p{N}' ]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Every character of `value` is masked, under whatever kind, in the written line and in its ASR form. */
function expectMaskedBoth(cases: [string, string][]): void {
  for (const [text, value] of cases) {
    for (const [t, v, detect] of [
      [text, value, written],
      [spoken(text), spoken(value), said],
    ] as const) {
      const at = t.indexOf(v);
      assert.ok(at >= 0, `${v} not in ${t}`);
      const found = detect(t);
      for (let i = at; i < at + v.length; i++) {
        if (t[i] !== ' ') assert.ok(found.some((d) => d.start <= i && i < d.end), `${t}: "${v}" not all masked, got ${shown(found)}`);
      }
    }
  }
}

/** No number's kind in the written line nor in its ASR form. */
function expectNoneBoth(lines: string[]): void {
  expectNone(
    lines.map((l) => [l, ALL_NUMBERS]),
    written,
  );
  expectNone(
    lines.map((l) => [spoken(l), ALL_NUMBERS]),
    said,
  );
}

test('"this call" keeps its phone cue before from/to/into/with or a bare phone; only "for this call is ..." is a noun', () => {
  expectMaskedBoth([
    ['the reference number for the call from 415 555 0172', '415 555 0172'],
    ['ticket number for this call from 415-555-0172', '415-555-0172'],
    ['confirmation number for your call to 415 555 0172', '415 555 0172'],
    ['reference number for that call into 800 555 0143', '800 555 0143'],
    ['ticket number for the call with 212 555 0166', '212 555 0166'],
    ['the confirmation number for the call 800 555 0143', '800 555 0143'],
    ['the reference number for your call today 415 555 0172', '415 555 0172'],
    ['invoice number for this call 415 555 0172', '415 555 0172'],
    ['the reference number for the call placed 212 555 0166', '212 555 0166'],
    // a card with a stray digit after it, "this call" or no
    ['reference number for this call 4111 1111 1111 1111 7', '4111 1111 1111 1111 7'],
    ['the reference number for this call is 5555 5555 5555 4444 2', '5555 5555 5555 4444 2'],
    // an SSN's length keeps its SSN reading
    ['the reference number for this call is 219 60 4417', '219 60 4417'],
  ]);
  // the drop kept: "for this call is" then a number of no phone's shape
  expectNoneBoth(['The reference number for this call is 20251207-0388, if you get cut off.']);
});

test('a letter code of 10-12 digits after policy/claim/case stays masked: an SSN may be in it', () => {
  expectMaskedBoth([
    ['my blue cross policy number is x y z 219604417 02', '219604417 02'],
    ['policy number XYZ-2196-0441-702', '2196-0441-702'],
    ['policy number XYZ-21-960-4417-02', '21-960-4417-02'],
    ['the policy number is r 2196044170', '2196044170'],
    ['claim number is h 21960441703', '21960441703'],
    ['case number is d 219604417031', '219604417031'],
    ['The policy number is HQ-6612-0385-14, it renews in May.', '6612-0385-14'],
  ]);
});

test("an itinerary's or an NDC's cue names only the number right after it, of no phone's shape nor an SSN's length", () => {
  expectMaskedBoth([
    ['send the itinerary number to 415 555 0172', '415 555 0172'],
    ['text the itinerary number to 415 555 0172', '415 555 0172'],
    ['the itinerary number and my number 415 555 0172', '415 555 0172'],
    ['itinerary number 212 555 0166 for my husband', '212 555 0166'],
    ['my itinerary number is 415 555 0172', '415 555 0172'],
    ['the NDC is 0781-5062-31 and my number 415 555 0172', '415 555 0172'],
    ['NDC 0781506231 and text 415 555 0172', '415 555 0172'],
    ['the NDC is 415-555-0172', '415-555-0172'],
    ['itinerary number 219 60 4417', '219 60 4417'],
    ['itinerary number 219604417', '219604417'],
    ['itinerary number 5555 5555 5555 4444 1', '5555 5555 5555 4444 1'],
    ['the itinerary number is 4111 1111 1111 1111', '4111 1111 1111 1111'],
    ['NDC 219 60 4417 3', '219 60 4417 3'],
  ]);
  // the drops kept: a 16-digit itinerary number that fails Luhn, an NDC of its own shape
  expectNoneBoth(['Your itinerary number is 6619 2045 7738 0214, keep it handy.', 'The NDC on the bottle is 0781-5062-31, and the lot is KX2290.']);
});

test('a card-length "reference" keeps a card inside it and the readings of groups split apart', () => {
  expectMaskedBoth([
    ['your payment reference is 4111 1111 1111 1111 6', '4111 1111 1111 1111 6'],
    ['your dispute reference is 219-60-4417 4155550172', '219-60-4417 4155550172'],
    ['your case reference is 219604417 4155550172', '219604417 4155550172'],
    ['the reference is 4155550172 123', '4155550172 123'],
    ['your dispute reference is 378282246310005 1', '378282246310005 1'],
    ['your dispute reference is 4111 1111 1111 1111', '4111 1111 1111 1111'],
  ]);
  // a filler splitting it (ASR): the card before the filler stays
  const t = 'your payment reference is four one one one one one one one one one one one one one one one uh one';
  const v = 'four one one one one one one one one one one one one one one one';
  const found = said(t);
  const at = t.indexOf(v);
  for (let i = at; i < at + v.length; i++) if (t[i] !== ' ') assert.ok(found.some((d) => d.start <= i && i < d.end), `${t}: not all masked, got ${shown(found)}`);
  // said as one 15-digit number, a phone's digits first: no reference drop
  const t2 = 'your dispute reference is one four one five five five five zero one seven two zero zero zero zero';
  assert.ok(said(t2).some((d) => d.text.includes('four one five five five five')), shown(said(t2)));
  // the drop kept: 16 digits grouped as one card's, failing Luhn everywhere a card could be
  expectNoneBoth(['Your dispute reference is 5302 8817 4406 1193, a letter follows in 10 days.']);
});

test("a second version with a host's octets, or a network named after it, stays an address", () => {
  expectMaskedBoth([
    ['firmware is 3.12.4.1 and the current one is 3.99.201.17 on my network', '3.99.201.17'],
    ['version 2.0.0.1, the current one is 2.250.13.77', '2.250.13.77'],
    ['firmware 3.12.4.1 and the current one is 3.14.0.2 on my router', '3.14.0.2'],
    ['firmware 3.12.4.1, the latest is 3.14.0.2 at the server', '3.14.0.2'],
    ['firmware 3.12.4.1, the new one is 3.14.100.2', '3.14.100.2'],
  ]);
  // the drop kept: a second version of small numbers, nothing of a network after it
  expectNoneBoth(["You're on firmware 5.2.1.7, the newest is 5.3.0.1, let's update."]);
});
