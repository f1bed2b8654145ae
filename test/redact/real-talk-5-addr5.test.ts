// Issue #32, round 5: numbers and street-like words taken for an address that are not one (a model's code, a
// count, a time, a flight, a cabin, a storage unit, a form's box, a road where something happened, a shop's street,
// a town named with its postcode), each written and said (ASR form: lower case, no punctuation, numbers as words),
// and beside each the real address of the same shape that must stay masked (never less). Every value is made up.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { said, written, shown, type Found } from '../helpers/detections.js';
import { talkNotAddress } from '../../src/redact/recognizers/addressTalk.js';
import { docFromText, docFromWords, type Doc } from '../../src/redact/recognizers/doc.js';

/** No Address is found in `text`. */
function noAddress(detect: (s: string) => Found, text: string): void {
  const found = detect(text);
  const hit = found.filter((d) => d.kind === 'Address');
  assert.deepEqual(hit.map((d) => `${d.kind}: ${d.text}`), [], `${text}: no Address expected, got ${shown(found)}`);
}
/** Some detection of `kind` covers `value`. */
function masked(detect: (s: string) => Found, text: string, kind: string, value: string): void {
  const found = detect(text);
  assert.ok(found.some((d) => d.kind === kind && d.text.toLowerCase().includes(value.toLowerCase())), `${text}: expected ${kind} over "${value}", got ${shown(found)}`);
}

test('a model number after "model", and a number before it, are no address', () => {
  noAddress(written, 'The dryer runs hot, it sits at 52, model DVE45R6100W, bought last spring.');
  noAddress(said, 'the dryer runs hot it sits at fifty two model d v e four five r six one double oh w bought last spring');
  noAddress(written, 'It takes 40 minutes to dry a load, model NTW4516FW.');
  noAddress(written, 'The Pixel 7, model GQML3X, shows 4% after a full night on the charger.');
  // a street beside a model number stays masked
  masked(written, 'Ship it to 52 Birch Lane, the dryer is model DVE45R6100W.', 'Address', '52 Birch Lane');
  masked(said, 'ship it to fifty two birch lane the dryer is model d v e four five', 'Address', 'fifty two birch lane');
});

test('a code after the name of what it is ("confirmation ending", "claim number", "cancellation number", "error")', () => {
  noAddress(said, 'i paid one thousand two hundred sixty five thirty confirmation ending four four two nine and it still shows due');
  noAddress(said, 'they billed me again for twelve ninety nine cancellation number k p four four one two nine');
  noAddress(written, 'Claim number 31-HO-0057712, and the adjuster never called back.');
  noAddress(said, 'the boiler keeps showing error f three twenty one since the update');
  // an address read out before a confirmation number stays masked
  masked(said, 'i live at twelve hundred pine street confirmation ending four four two nine', 'Address', 'twelve hundred pine street');
  masked(written, 'I live at 1200 Pine Street, confirmation ending 4429.', 'Address', '1200 Pine Street');
});

test('a count and what it counts ("5 nights", "8 sessions", "90 tablets", "2 different stores", "40 years", "work miles")', () => {
  noAddress(written, 'We sail on June 3rd, 5 nights, deck 7, cabin 7120, and the rest is due in May.');
  noAddress(said, 'we sail on june third five nights deck seven cabin seventy one twenty and the rest is due in may');
  noAddress(said, 'the referral from her doctor at eastside is for eight sessions of physical therapy');
  noAddress(written, 'The prescription is Rx 7781230, lisinopril 20 milligrams, 90 tablets, 30-day supply.');
  noAddress(said, 'the prescription is r x seven seven eight one two three oh lisinopril twenty milligrams ninety tablets thirty day supply');
  noAddress(written, 'I did the exchange at Nordstrom, 2 different stores.');
  noAddress(said, 'i did the exchange at nordstroms two different stores');
  noAddress(written, "It's her birthday, 40 years in May, and she'd love the garden view.");
  noAddress(said, 'for schedule c i drove nine thousand two hundred forty work miles last year');
  noAddress(written, "It's a 2-bedroom, about 900 square feet, with a piano.");
  // a house number before a street, with a count in the same sentence, stays masked
  masked(written, "Send it to 40 Birch Lane, it's her birthday, 40 years in May.", 'Address', '40 Birch Lane');
  masked(said, 'i live at nine thousand two hundred forty oak street for five nights a week', 'Address', 'nine thousand two hundred forty oak street');
  masked(said, 'we stay at seven twenty cabin road for five nights', 'Address', 'seven twenty cabin road');
  // a measure that also names a place is no count of it
  masked(written, 'Please ship it to 450 Green Acres, Springfield.', 'Address', '450 Green Acres');
  masked(said, 'please ship it to four fifty green acres springfield', 'Address', 'four fifty green acres');
  masked(said, 'send it to twelve hundred eight mile road detroit', 'Address', 'twelve hundred eight mile road');
});

test('an age after who has it ("shes seventy nine")', () => {
  noAddress(said, 'its for my mom shes seventy nine and her eyesight isnt great');
  noAddress(written, "It's for my mom, she's 79 and her eyesight isn't great.");
  masked(said, 'shes at seventy nine elm street now', 'Address', 'seventy nine elm street');
});

test('a time of day ("6 p.m. Central", "at 3:45 p.m.", "at six forty connecting")', () => {
  noAddress(written, 'The branch closes at 6 p.m. Central, so can I still send it today?');
  noAddress(written, 'The ticket says it was written at 3:45 p.m. on Tuesday.');
  noAddress(said, 'we land in denver at six forty connecting to boise at nine');
  masked(said, 'i live at six forty maple street', 'Address', 'six forty maple street');
});

test('a seat and its row ("seat 14C, row 14") is no street called Row', () => {
  noAddress(written, 'We were in seat 21C, row 21, on the 6:15 flight.');
  noAddress(said, 'we were in seat twenty one c row twenty one on the six fifteen flight');
  masked(written, 'Send it to 21 Savile Row, London.', 'Address', '21 Savile Row');
  masked(said, 'send it to twenty one savile row london', 'Address', 'twenty one savile row');
  masked(written, 'Our office is Level 3, 100 George Street, Sydney.', 'Address', '100 George Street');
  masked(written, 'I live at 14, Oak Street.', 'Address', 'Oak Street');
});

test('a flight ("United 882") near talk of flying', () => {
  noAddress(written, "We're on United 882 out of Denver at 6:40, connecting in Chicago.");
  noAddress(said, 'were on united eight eighty two out of denver at six forty connecting in chicago');
  masked(written, 'My address is 882 Delta Street, and I fly out Monday.', 'Address', '882 Delta Street');
  masked(said, 'my address is eight eighty two delta street and i fly out monday', 'Address', 'eight eighty two delta street');
});

test('a labelled number: a network port, a parking space, a rating written in capitals ("MERV 13")', () => {
  noAddress(said, 'the server ip is ten dot one dot two dot three port eighty eighty');
  noAddress(said, 'the meter at space thirty two fifteen was broken and took my coins');
  noAddress(written, 'The meter at space 3215 was broken.');
  noAddress(written, 'The replacement filter is the 20 by 25 by 1, MERV 13.');
  masked(written, 'Ship it to 13 Kingsway, Leeds LS1 4AP.', 'Address', '13 Kingsway');
  masked(written, 'It goes to 1200 Oak St, Springfield, IL 62704.', 'Address', '1200 Oak St');
});

test('a storage unit is no flat: its unit number after "storage unit"', () => {
  noAddress(said, 'the code for the storage unit is two two four one unit number b two oh four and the lock is mine');
  noAddress(written, 'The storage unit is unit 204, and the gate code is 2241.');
  // a unit in a street address stays masked
  masked(written, 'I live at 12 Oak Street, unit 3B.', 'Address', 'unit 3B');
  masked(said, 'i live at twelve oak street unit three b', 'Address', 'unit three b');
  masked(written, 'My apartment is unit 204, 88 Hill Road.', 'Address', 'unit 204');
});

test('a form\'s box ("On the W-2, box 1 says") is no PO box', () => {
  noAddress(written, 'On the W-2, box 12 shows $4,100, and that looks wrong to me.');
  noAddress(written, 'On the 1099, box 7 says $12,400.');
  masked(written, 'Mail it to PO Box 4417, Dayton, OH 45401.', 'Address', 'PO Box 4417');
  masked(written, 'Please mail it to box 4417 in Dayton.', 'Address', 'box 4417');
  masked(written, 'On the form, put P.O. Box 77 as the address.', 'Address', 'Box 77');
});

test('a numbered road where something happened ("Route 12 near mile marker 30")', () => {
  noAddress(written, "There's a tree down on Route 12 near mile marker 30, right across the lanes.");
  noAddress(said, 'theres a tree down on route twelve near mile marker thirty right across the lanes');
  masked(written, 'I live on Route 12 near mile marker 30.', 'Address', 'Route 12');
  masked(written, 'My address is Box 14, Route 2, Harlan.', 'Address', 'Route 2');
});

test('a shop\'s street after its store number ("the one on Maple Avenue")', () => {
  noAddress(written, 'The receipt code is 512, and the store number is 3310, the one on Maple Avenue.');
  noAddress(said, 'the receipt code is five one two and the store number is thirty three ten the one on maple avenue');
  masked(written, 'My sister lives on Maple Avenue, near the store.', 'Address', 'Maple Avenue');
  masked(written, 'The store number is 3310, so send it to the one on Maple Avenue.', 'Address', 'Maple Avenue');
  // "the one" that is someone's home, named after the shop
  masked(written, "I went to the bank, then my sister's, the one on Maple Avenue.", 'Address', 'Maple Avenue');
});

test('an amount before a street word ("$75 each way")', () => {
  noAddress(written, 'The coach fare was $75 each way.');
  noAddress(said, 'the coach fare was seventy five dollars each way');
  masked(written, 'My address is 75 Ridge Way.', 'Address', '75 Ridge Way');
  masked(said, 'my address is seventy five ridge way', 'Address', 'seventy five ridge way');
});

test('a town and its postcode, no street: the postcode stays a ZipCode, the town no address', () => {
  const t = 'were in fitzroy postcode three oh six five victoria';
  noAddress(said, t);
  masked(said, t, 'ZipCode', 'three oh six five');
  masked(said, 'i live at twelve oak street in fitzroy postcode three oh six five victoria', 'Address', 'twelve oak street');
});

/** The words of `text` (ASR when `spoken`) that `span` covers, as the tagger's run [s, e). */
function runOf(text: string, span: string, spoken: boolean): [Doc, number, number] {
  const doc = spoken ? docFromWords(text.split(' ')) : docFromText(text);
  const at = doc.text.indexOf(span);
  assert.ok(at >= 0, `${span} not in ${text}`);
  const s = doc.words.findIndex((w) => w.end > at);
  const e = doc.words.findIndex((w) => w.start >= at + span.length);
  return [doc, s, e < 0 ? doc.words.length : e];
}
/** [text, the run the tagger might take for an address, said?]: the Address filter reads it as talk (or not). */
type Run = [string, string, boolean];
function readAsTalk(runs: Run[], talk: boolean): void {
  for (const [text, span, spoken] of runs) assert.equal(talkNotAddress(...runOf(text, span, spoken)), talk, `${text}: "${span}" ${talk ? 'should' : 'should not'} read as talk`);
}

// The tagger proposes such runs in some sentences and not in others (its context is wide): the filter itself is
// checked on each shape, whether or not the tagger takes it in a given sentence.
test('the Address filter reads these runs as talk: codes, counts, labels, ages, flights, times, storage units, roads', () => {
  readAsTalk([
    ['The dryer runs hot, it sits at 52, model DVE45R6100W, bought last spring.', '52, model DVE45R6100W', false],
    ['the dryer runs hot it sits at fifty two model d v e four five r six one double oh w bought last spring', 'fifty two model d v e four five r six one double oh w', true],
    ['It takes 40 minutes to dry, model NTW4516FW.', 'NTW4516FW', false],
    ['Claim number 31-HO-0057712, and the adjuster never called back.', 'HO-0057712', false],
    ['i paid one thousand two hundred sixty five thirty confirmation ending four four two nine', 'one thousand two hundred sixty five thirty confirmation ending four four two nine', true],
    ['billed again for twelve ninety nine cancellation number k p four four one two nine', 'cancellation number k p four four one two nine', true],
    ['the boiler keeps showing error f three twenty one since the update', 'error f three twenty one', true],
    ['We sail on June 3rd, 5 nights, deck 7, cabin 7120, and the rest is due in May.', 'nights, deck 7, cabin 7120', false],
    ['we sail on june third five nights deck seven cabin seventy one twenty and the rest', 'deck seven cabin seventy one twenty', true],
    ['the referral is for eight sessions of physical therapy', 'eight sessions', true],
    ['The prescription is Rx 7781230, lisinopril 20 milligrams, 90 tablets, 30-day supply.', 'Rx 7781230, lisinopril 20 milligrams, 90 tablets, 30', false],
    ['the prescription is r x seven seven eight one two three oh lisinopril twenty milligrams ninety tablets thirty day supply', 'lisinopril twenty milligrams ninety tablets thirty', true],
    ["I did the exchange at Nordstrom's, 2 different stores.", "Nordstrom's, 2 different stores", false],
    ["It's her birthday, 40 years in May.", 'birthday, 40', false],
    ['for schedule c i drove nine thousand two hundred forty work miles last year', 'c i drove nine thousand two hundred forty', true],
    ["It's a 2-bedroom, about 900 square feet.", 'bedroom', false],
    ['its for my mom shes seventy nine and her eyesight isnt great', 'shes seventy nine', true],
    ["We're on United 882 out of Denver at 6:40, connecting in Chicago.", 'United 882', false],
    ['were on united eight eighty two out of denver at six forty connecting in chicago', 'united eight eighty two', true],
    ['were on united eight eighty two out of denver at six forty connecting in chicago', 'six forty connecting', true],
    ['the server ip is ten dot one dot two dot three port eighty eighty', 'port eighty eighty', true],
    ['the meter at space thirty two fifteen was broken', 'space thirty two fifteen', true],
    ['The replacement filter is the 20 by 25 by 1, MERV 13.', 'MERV 13', false],
    ['The Pixel 7, model GQML3X, shows 4% after a night on the charger.', 'X, shows 4', false],
    ['the code for the storage unit is two two four one unit number b two oh four and the lock', 'two two four one unit number b two oh four', true],
    ['theres a tree down on route twelve near mile marker thirty right across the lanes', 'route twelve', true],
  ], true);
});

test('the Address filter still reads the same shapes with a real address as an address', () => {
  readAsTalk([
    ['Ship it to 52 Birch Lane, the dryer is model DVE45R6100W.', '52 Birch Lane', false],
    ['i live at nine thousand two hundred forty oak street for five nights a week', 'nine thousand two hundred forty oak street', true],
    ['shes at seventy nine elm street now', 'seventy nine elm street', true],
    ['i live at six forty maple', 'six forty maple', true],
    ['my address is eight eighty two delta street and i fly out monday', 'eight eighty two delta street', true],
    ['I live at 12 Oak Street, unit 3B, near the storage place.', '12 Oak Street, unit 3B', false],
    ['i live on route twelve near mile marker thirty', 'route twelve', true],
    ['Ship it to 13 Kingsway, Leeds.', '13 Kingsway, Leeds', false],
    ['the house number is 42, Sølvgade, 3 floors up', 'Sølvgade', false],
    ['please ship it to four fifty green acres springfield', 'four fifty green acres springfield', true],
    // a label's number where something is sent is kept: it may be part of the address
    ['deliver it to cabin twelve at eighty lakeshore drive', 'cabin twelve', true],
  ], false);
});

// Review of the round's filters (never less): each shape the filters left unmasked that the tree before them masked.
test('a named street after a label or an amount is a house number ("model twelve oak street is my address", "$12 Oak Street")', () => {
  masked(said, 'model twelve oak street is my address', 'Address', 'twelve oak street');
  masked(written, 'Model 12 Oak Street is my address.', 'Address', '12 Oak Street');
  masked(said, 'error twelve oak street is my address', 'Address', 'twelve oak street');
  masked(said, 'its the model twelve oak drive thats my home', 'Address', 'twelve oak drive');
  masked(said, 'gate twelve oak lane is my address', 'Address', 'twelve oak lane');
  masked(written, "I'm at $12 Oak Street.", 'Address', '12 Oak Street');
  masked(written, "i'm at $12 oak street", 'Address', '12 oak street');
  masked(written, 'The fare was $89 Main Street is where I stay.', 'Address', '89 Main Street');
  // a seat's row and a fare "each way" stay unmasked
  noAddress(written, 'Seat 14C, row 14 please.');
  noAddress(said, 'seat fourteen c row fourteen please');
  noAddress(written, 'The coach fare was $75 each way.');
  noAddress(said, 'the coach fare was seventy five dollars each way');
});

test('a box with its town or postcode after it, or said to be an address, is a post office box, after "form" too', () => {
  masked(written, 'Form: Box 1234, Phoenix AZ 85001', 'Address', 'Box 1234');
  masked(written, 'form box 1234 phoenix az 85001', 'Address', 'box 1234');
  masked(said, 'form box twelve thirty four phoenix arizona eight five oh oh one', 'Address', 'box twelve thirty four');
  masked(written, 'The 1099 says Box 1234, Tucson, AZ 85701', 'Address', 'Box 1234');
  masked(written, 'Box 1234 shows on the W-2 as my address', 'Address', 'Box 1234');
  masked(said, 'box twelve thirty four shows on the w two as my address', 'Address', 'box twelve thirty four');
  masked(said, 'the w two says box twelve thirty four is my address', 'Address', 'box twelve thirty four');
  // a form's box with an amount stays unmasked
  noAddress(written, 'On the W-2, box 1 says $52,310.44 in wages.');
  noAddress(said, 'on the w two box one says fifty two thousand in wages');
});

test('a storage unit someone lives in, or with a street address after it, is an address', () => {
  masked(written, 'I moved out of storage, unit 12 at 40 Pine Rd is home', 'Address', 'unit 12');
  masked(said, 'i moved out of storage unit twelve at forty pine road is home', 'Address', 'unit twelve');
  masked(written, 'I have a storage unit 12 at 40 Pine Rd.', 'Address', 'unit 12');
  const t = 'My storage unit 118 is where I sleep now, I live in unit 118.';
  const found = written(t).filter((d) => d.kind === 'Address' && d.text === 'unit 118');
  assert.equal(found.length, 2, `${t}: both "unit 118" masked, got ${shown(written(t))}`);
  masked(said, 'my storage unit one eighteen is where i sleep now', 'Address', 'unit one eighteen');
  // a storage unit's code stays unmasked
  noAddress(said, 'the storage unit is two two four one unit number b two oh four and the lock is broken');
});

test('a residence or sending cue before a shop keeps the street it is on ("I live at the shop, the one on Elm Street")', () => {
  masked(written, 'I live at the shop, the one on Elm Street.', 'Address', 'Elm Street');
  masked(written, 'My address is the bakery, the one on Elm Street.', 'Address', 'Elm Street');
  masked(written, 'Home is the old shop, the one on Elm Street.', 'Address', 'Elm Street');
  masked(written, 'Send it to the store, the one on Elm Street.', 'Address', 'Elm Street');
  masked(written, 'I live above the store on Elm Street.', 'Address', 'Elm Street');
  // a shop's street with no one living there stays unmasked
  noAddress(written, 'My sister works at the bank, the one on Grant Avenue.');
  noAddress(written, 'The store number is 2290, the one on Grant Avenue.');
});

test('a labelled or counted number where someone lives, said after it, stays masked ("cabin 12, 80 Lakeshore is where I live")', () => {
  masked(said, 'cabin twelve eighty lakeshore is where i live', 'Address', 'twelve eighty');
  masked(written, 'Cabin 12, 80 Lakeshore is where I live.', 'Address', '80 Lakeshore');
  masked(written, 'Deck 9, cabin 9214 is my home address.', 'Address', 'cabin 9214');
  masked(said, 'deck nine cabin ninety two fourteen is where we live now', 'Address', 'cabin ninety two fourteen');
});

test('a town after "live in" beside its postcode stays masked; named in passing it is no address', () => {
  masked(said, 'i live in brunswick postcode three oh five six', 'Address', 'brunswick');
  masked(said, 'we live in fitzroy postcode three oh six five victoria', 'Address', 'fitzroy');
  noAddress(said, 'were in fitzroy postcode three oh six five victoria');
});
