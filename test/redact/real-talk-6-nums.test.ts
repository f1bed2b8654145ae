// Issue #32, round 6, the number kinds: the last four of the social answered after the question (an account or a
// date of birth asked beside it; the account the second answer), a license's id a few words after its request or
// before "it's a <state> license", a check's bottom line (routing then account), a birth date corrected ("no, ..."),
// "d o b" spelled before its date, a card's date named only "date" or said after the card's digits read out; and a
// year after "since" is no account's number (the account's number itself still masked). Written and said (ASR
// form). Values made up.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expectKind, expectNone, said, shown, written } from '../helpers/detections.js';

/** Every character of `value` in `text` is covered by some detection. */
function expectMasked(cases: [string, string][], detect: typeof written | typeof said): void {
  for (const [text, value] of cases) {
    const at = text.indexOf(value);
    assert.ok(at >= 0, `${value} not in ${text}`);
    const found = detect(text) as { kind: string; text: string; start: number; end: number }[];
    for (let c = at; c < at + value.length; c++) {
      if (text[c] === ' ') continue;
      assert.ok(
        found.some((d) => d.start <= c && c < d.end),
        `${text}: "${value}" not masked at ${c}, got ${shown(found)}`,
      );
    }
  }
}

test('the last four of the social, answered after the question, whatever else is asked beside it', () => {
  expectKind(
    [
      ['Could you confirm the last 4 of the Social on the account? — Sure, 6148.', 'USSocialSecurityNumber', '6148'],
      ['I need the last four of your social and your date of birth. — 3390, and I was born June 2nd, 1958.', 'USSocialSecurityNumber', '3390'],
      ['What are the last four digits of your SSN on file? Um, 2277.', 'USSocialSecurityNumber', '2277'],
    ],
    written,
  );
  expectKind(
    [
      ['could you confirm the last four of the social on the account sure six one four eight', 'USSocialSecurityNumber', 'six one four eight'],
      ['i need the last four of your social and your date of birth three three nine oh and i was born june second nineteen fifty eight', 'USSocialSecurityNumber', 'three three nine oh'],
    ],
    said,
  );
  // the date of birth said after it keeps its own kind
  expectKind([['I need the last four of your social and your date of birth. — 3390, and I was born June 2nd, 1958.', 'DateOfBirth', 'June 2nd, 1958']], written);
  // the second answer, to the account asked for beside the social, is the account's
  expectKind([['Last four of your social and the account number? 6148 and 77120394.', 'USBankAccountNumber', '77120394']], written);
  expectKind([['last four of your social and the account number six one four eight and seven seven one two oh three nine four', 'USBankAccountNumber', 'seven seven one two oh three nine four']], said);
  // the last four of something else are not the social's
  expectNone([['Can you read me the last four of the card on the account? 8816', ['USSocialSecurityNumber']]], written);
});

test("a license's id a few words after its request, or named a state's license after it", () => {
  expectKind(
    [
      ["For the rental we'll take your driver's license number instead. — Okay, K5520914, it's an Ohio license.", 'USDriversLicenseNumber', 'K5520914'],
      ['The front desk needs your license. — It\'s T611-3309-2284, Illinois.', 'USDriversLicenseNumber', 'T611-3309-2284'],
      ["I've got W3318870, it's a Texas license.", 'USDriversLicenseNumber', 'W3318870'],
    ],
    written,
  );
  expectKind(
    [
      ['for the rental well take your drivers license number instead okay k five five two oh nine one four its an ohio license', 'USDriversLicenseNumber', 'k five five two oh nine one four'],
      ['the front desk needs your license its t six one one three three oh nine two two eight four illinois', 'USDriversLicenseNumber', 't six one one three three oh nine two two eight four'],
    ],
    said,
  );
  // digits only after the request are masked too
  expectMasked([['Do you have your license with you? Yes, hold on, 55193027.', '55193027']], written);
  // a dash between the parties' lines is no word: the id after it is taken
  expectKind([['Passport number — 561204417.', 'USPassportNumber', '561204417']], written);
  // a short piece taken first after the cue: the passport-shaped id a few words on is still masked
  expectMasked([['passport — a 12 34 then C07734182 is the real one', 'C07734182']], written);
  // "d l" may be an airline's: no far id taken after it
  expectNone([['my flight is d l six oh one on march ninth eight forty in the morning', ['USDriversLicenseNumber']]], said);
});

test("a check's bottom line read out: the routing number, then the account", () => {
  expectKind(
    [
      ['For direct deposit, the bottom of my check reads 021000021 then 7730115528 then the check number 2231.', 'ABARoutingNumber', '021000021'],
      ['For direct deposit, the bottom of my check reads 021000021 then 7730115528 then the check number 2231.', 'USBankAccountNumber', '7730115528'],
      ['Payroll has 011000015 and 4410 2873 55, can you check?', 'USBankAccountNumber', '4410 2873 55'],
    ],
    written,
  );
  expectKind(
    [
      ['for direct deposit the bottom of my check reads oh two one oh oh oh oh two one then seven seven three oh one one five five two eight', 'ABARoutingNumber', 'oh two one oh oh oh oh two one'],
      ['for direct deposit the bottom of my check reads oh two one oh oh oh oh two one then seven seven three oh one one five five two eight', 'USBankAccountNumber', 'seven seven three oh one one five five two eight'],
      ['payroll has oh one one oh oh oh oh one five and four four one oh two eight seven three five five', 'USBankAccountNumber', 'four four one oh two eight seven three five five'],
    ],
    said,
  );
  // a phone named after the routing number stays a phone
  expectKind([['The routing is 011000015 and my phone is 617-555-0148.', 'PhoneNumber', '617-555-0148']], written);
  // "let me check" is no paper check: a valid routing shape with no bank word stays an SSN reading (masked either way)
  expectKind([["Let me check, it's 021000021.", 'USSocialSecurityNumber', '021000021']], written);
});

test('a birth date corrected: the corrected date is a birth date too', () => {
  expectKind(
    [
      ['Birthday is 04/12/79, no, 04/21/79.', 'DateOfBirth', '04/21/79'],
      ['My date of birth is July 3rd 1966, sorry, July 13th 1966.', 'DateOfBirth', 'July 13th 1966'],
    ],
    written,
  );
  expectKind(
    [
      ['birthday is oh four twelve seventy nine no oh four twenty one seventy nine', 'DateOfBirth', 'oh four twenty one seventy nine'],
      ['date of birth ten oh two fifty four no sorry ten twenty fifty four', 'DateOfBirth', 'ten twenty fifty four'],
    ],
    said,
  );
});

test('"d o b" spelled before its date is a cue, not a name; a name spelled after "name" stays a name', () => {
  expectKind([['patient name harold vance d o b five nineteen forty eight', 'DateOfBirth', 'five nineteen forty eight']], said);
  const found = said('patient name harold vance d o b five nineteen forty eight');
  assert.ok(!found.some((d) => d.kind === 'Person' && d.text.includes('d o b')), shown(found));
  // the social spelled "s s n" before its digits: the digits are the SSN's
  expectKind([['member name rita oakes s s n five two one four four eight three nine oh', 'USSocialSecurityNumber', 'five two one four four eight three nine oh']], said);
  // a surname spelled that starts with those letters is still a name
  expectKind([['my last name is d o b s o n', 'Person', 'd o b s o n']], said);
});

test("a card's date: named only \"date\" after the card, or said after the card's digits read out", () => {
  expectKind(
    [
      ['The replacement card has a new date, 11/30, and the three-digit code is 718.', 'ExpirationDate', '11/30'],
      ["The card's date is October 2029.", 'ExpirationDate', 'October 2029'],
    ],
    written,
  );
  expectKind(
    [
      ['the replacement card has a new date eleven thirty and the three digit code is seven eighteen', 'ExpirationDate', 'eleven thirty'],
      [
        'its a visa four five three two oh one five one one two eight three oh three six six the three digits on the back are five five one and it runs out march twenty thirty one',
        'ExpirationDate',
        'march twenty thirty one',
      ],
    ],
    said,
  );
  // a due date on the card's statement is no card's date
  expectNone([['My card payment due date is 09/25.', ['ExpirationDate']]], written);
});

test('a year after "since" is no account\'s number; the account\'s number itself stays masked', () => {
  expectNone(
    [
      ["I've had this account since 1972, and I never paid a fee.", ['USBankAccountNumber']],
      ['We opened the savings account back in 2004.', ['USBankAccountNumber']],
    ],
    written,
  );
  expectNone([['ive had this account since nineteen seventy two and i never paid a fee', ['USBankAccountNumber']]], said);
  // still masked: the account's number (a year's digits too), read out or after "number", "ending in"
  expectKind(
    [
      ['My account number is 1972.', 'USBankAccountNumber', '1972'],
      ['The account number since the merger is 55120487.', 'USBankAccountNumber', '55120487'],
    ],
    written,
  );
  expectKind(
    [
      ['the account is one nine seven two', 'USBankAccountNumber', 'one nine seven two'],
      ['my checking account since one nine seven two', 'USBankAccountNumber', 'one nine seven two'],
    ],
    said,
  );
  expectMasked([['Savings account ending in 1972.', '1972']], written);
});

test('"<account> since <year> is <number>": the number after is the account\'s whatever the year is taken for; both masked when unsure', () => {
  expectMasked(
    [
      ['No, my account since 1994 is 61830275.', '61830275'],
      ['No, my account since 1994 is 61830275.', '1994'],
      ['No no, the account since 1986 is 39127740.', '39127740'],
      ['Sorry no, savings since 1993 is 72615508.', '72615508'],
      ['Checking since 2012 is 48093316.', '48093316'],
      ['Acct since 1986 is 39127740.', '39127740'],
      ['Acct since 1986 is 39127740.', '1986'],
      ["What's the account number? I've had it since 1997, it's 61830275.", '61830275'],
      ['The number on the account since 1997 is 50392218.', '50392218'],
      ['Customer number 5823, account since 1997 is 61830275.', '61830275'],
      ['Routing number 021000021, and my account since 1997 is 61830275.', '61830275'],
      ['Acct since 1997 is 3018.', '3018'],
      ['The savings account I opened in 1996 is 50392218.', '50392218'],
      ['My savings since 1991 to 2006 was 30457712.', '30457712'],
    ],
    written,
  );
  expectMasked(
    [
      ['my acct since nineteen ninety seven is five eight two three one one six four', 'five eight two three one one six four'],
      ['my acct since nineteen ninety seven is five eight two three one one six four', 'nineteen ninety seven'],
      ['no my account since nineteen ninety four is six one eight three oh two seven five', 'six one eight three oh two seven five'],
      // the year read digit by digit: maybe the account's own digits, masked too
      ['i have had this account since one nine six eight and the number is five eight two three one one six four', 'five eight two three one one six four'],
      ['i have had this account since one nine six eight and the number is five eight two three one one six four', 'one nine six eight'],
      ['my account since one nine eight six is five eight two three one one six four', 'five eight two three one one six four'],
      ['my savings since two zero zero four is three nine one two seven seven four oh', 'three nine one two seven seven four oh'],
      ['my savings since nineteen ninety one to two thousand six was three oh four five seven seven one two', 'three oh four five seven seven one two'],
    ],
    said,
  );
  // the year alone, clearly one, is still no account's number
  expectNone(
    [
      ["I've had this account since 1968.", ['USBankAccountNumber']],
      ['We opened the checking account in 1996.', ['USBankAccountNumber']],
    ],
    written,
  );
  expectNone([['ive had this account since nineteen sixty eight', ['USBankAccountNumber']]], said);
});

test('a year\'s shape after "in"/"from" with no time word, a future year, or "ended in": the account\'s, masked', () => {
  expectMasked(
    [
      ['My account? In 2047.', '2047'],
      ['Which account? The one from 2036.', '2036'],
      ['My checking, the one in 2047, please.', '2047'],
      ['wire it to my account in 2042 please', '2042'],
      ['Account: from 2047.', '2047'],
      ["The payment came from 2047, that's my account.", '2047'],
      ["The account's in 2047 and 1996.", '2047'],
      ["The account's in 2047 and 1996.", '1996'],
      ['The account that ended in 1996', '1996'],
      ['my savings account which ends up in 2047', '2047'],
      ['my account in 1996 please', '1996'],
    ],
    written,
  );
  expectMasked(
    [
      ['my account in twenty forty seven', 'twenty forty seven'],
      ['which account the one from twenty thirty six', 'twenty thirty six'],
      ['the account that ended in nineteen ninety six', 'nineteen ninety six'],
      ['my savings account which ends up in twenty forty seven', 'twenty forty seven'],
      ['wire it to my account in twenty forty two please', 'twenty forty two'],
    ],
    said,
  );
  // a time word beside "in"/"from": a year
  expectNone(
    [
      ['The account was opened back in 2001.', ['USBankAccountNumber']],
      ["I've been a member with this account from 1991 to 2004.", ['USBankAccountNumber']],
    ],
    written,
  );
  expectNone([['we opened the account in nineteen ninety six', ['USBankAccountNumber']]], said);
});
