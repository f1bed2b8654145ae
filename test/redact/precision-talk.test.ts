// Issue #32, precision on ordinary talk: words the Person/Address filters took for a name or a street (nouns the
// name lists hold, spelled abbreviations, measures, time zones, versions, codes, a name used as a verb or a noun),
// each written and said (ASR form: lower case, no punctuation, numbers as words), with a real name or address
// beside them still masked. Every sentence here is made up.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { said, written, shown, type Found } from '../helpers/detections.js';


/** No detection of `kinds` touches `word` (other kinds, and other words, may be found). */
function notMasked(detect: (s: string) => Found, text: string, word: string, kinds = ['Person', 'Address']): void {
  const found = detect(text);
  const hit = found.filter((d) => kinds.includes(d.kind) && d.text.toLowerCase().includes(word.toLowerCase()));
  assert.deepEqual(hit.map((d) => `${d.kind}: ${d.text}`), [], `${text}: "${word}" masked as ${kinds.join('/')}: ${shown(found)}`);
}
/** Some detection of `kind` covers `value`. */
function masked(detect: (s: string) => Found, text: string, kind: string, value: string): void {
  const found = detect(text);
  assert.ok(found.some((d) => d.kind === kind && d.text.toLowerCase().includes(value.toLowerCase())), `${text}: expected ${kind} over "${value}", got ${shown(found)}`);
}

test('a common noun the name lists hold is no name alone (written and said); a surname beside a given name still is', () => {
  notMasked(written, 'I have lost all trust in this company, to be honest.', 'company');
  notMasked(said, 'i have lost all trust in this company to be honest', 'company');
  notMasked(said, 'the night shift dials in to the bridge at six', 'dials');
  notMasked(said, 'the replacement sim they mailed me never activated', 'sim');
  notMasked(written, 'The screen just flashes "Battery Low" and shuts off.', 'Battery');
  notMasked(said, 'the screen just flashes battery low and shuts off', 'battery');
  // the same kind of word as a surname, right after a given name, stays masked
  masked(said, 'the account is under priscilla beer', 'Person', 'beer');
  masked(written, 'The account is under Priscilla Beer.', 'Person', 'Beer');
  masked(said, 'please ask aquiline to call me back tomorrow', 'Person', 'aquiline');
});

test('letters that spell an abbreviation are no spelled name (said); a spelled name beside them still is', () => {
  notMasked(said, 'my d o b is march fourth eighty one', 'd o b');
  notMasked(said, 'the s s n on file ends in four four', 's s n');
  notMasked(said, 'i bought three u s b chargers and a pair of h d m i leads', 'h d m');
  notMasked(said, 'the office v p n keeps dropping every hour', 'v p n');
  notMasked(said, 'the a t m ate my card this morning', 'a t m');
  masked(said, 'my last name is spelled k o w a l s k i', 'Person', 'k o w a l s k i');
  masked(said, 'the v p n login is for marguerite oyelaran', 'Person', 'oyelaran');
});

test('one letter said with a word for it is no name (written and said)', () => {
  notMasked(written, 'Send it to pkowal77@example.com, P as in Peter.', 'as in');
  notMasked(said, 'send it to p kowal seventy seven at example dot com p as in peter', 'as in');
});

test('a number and what it measures, an hour and its time zone, a version, a labelled number are no address (said)', () => {
  notMasked(said, 'the router covers two thousand square feet they told me', 'square');
  notMasked(said, 'the engineer will call at ten pacific on thursday', 'pacific');
  notMasked(said, 'we dial in every day at eight thirty central', 'central');
  notMasked(said, 'my phone is still on version four point one point two', 'version');
  notMasked(said, 'the tv shows error forty two whenever i turn it on', 'error');
  notMasked(said, 'it is cloudy sixty eight and raining and the signal is gone', 'cloudy');
  notMasked(said, 'the invoice number is i n v four four seven one two', 'four four');
  // a real street with a number, right beside, stays masked
  masked(said, 'the router covers two thousand square feet at four eleven birchwood lane', 'Address', 'birchwood');
  masked(said, 'the engineer will call at ten pacific time at two hundred pacific avenue', 'Address', 'pacific avenue');
  masked(written, 'The engineer will come to 200 Pacific Avenue at 10 Pacific time.', 'Address', 'Pacific Avenue');
});

test('ordinary words and a place read as an address are none (written); a place after a postcode is no address alone', () => {
  notMasked(written, 'Is the Denver data hall down again? Nothing loads.', 'data');
  notMasked(written, 'My sister-in-law, Odalys Ferrante, pays the bill.', 'sister-in-law');
  masked(written, 'My sister-in-law, Odalys Ferrante, pays the bill.', 'Person', 'Odalys Ferrante');
  notMasked(written, 'Postal code G1R 4P5, in Québec.', 'Québec', ['Address']);
  // a house name stays an address
  masked(written, 'We moved, it used to be The Orchards before they renamed it.', 'Address', 'Orchards');
});

test('a given name used as a verb or a noun is no name (written and said); the same name as a name still is', () => {
  notMasked(written, 'Rob us blind, that is what these fees do.', 'Rob');
  notMasked(said, 'rob us blind that is what these fees do', 'rob');
  // (a plural compromise reads as a verb, "Clay pipes up", keeps the name: masked rather than not)
  notMasked(written, 'Clay pots on the porch got smashed by the courier.', 'Clay');
  notMasked(said, 'clay pots on the porch got smashed by the courier', 'clay');
  masked(written, 'Clay Brandvold called about the pipes.', 'Person', 'Clay');
  masked(said, 'my husband rob called about the pipes', 'Person', 'rob');
});

test('a contraction after a title, an adjective before a noun, are no name (said)', () => {
  notMasked(said, 'it is doctor okafor not mister shes very strict about that', 'shes');
  masked(said, 'it is doctor okafor not mister shes very strict about that', 'Person', 'okafor');
  notMasked(said, 'after three weeks without service im not in a good mood', 'mood');
  notMasked(said, 'after three weeks without service im really not in a great mood', 'mood');
});
