// Held-out check for the Person and Address recognizers: contact-center sentences written by hand (not taken from
// or modelled on the Presidio sample the recognizers are tuned on), in written form and in the form ASR writes
// (lower case, no punctuation, numbers as spoken words). [P:...] marks a person, [A:...] an address; sentences
// with no mark are negatives (common words that are also names, companies, products, places that are not an
// address). Used by eval/pii.ts (reported beside the dev figures) and guarded by test/redact/heldout.test.ts.
import type { EntityKind } from '../../src/redact/entityKinds.js';

export const HELDOUT_WRITTEN: string[] = [
  // names after cues
  'Thank you for calling Northwind, this is [P:Keisha] speaking, how can I help you today?',
  'Hi, my name is [P:Dmitri Volkov] and I have a question about my bill.',
  'The account is under my wife [P:Priya Raman].',
  'Could I speak with [P:Mr. Okafor] please?',
  'Yes, this is [P:Dr. Ana Li] returning your call.',
  "My last name is [P:Van der Berg], with a small d.",
  'Can you transfer me to [P:Gwendolyn] in billing?',
  'I was helped yesterday by an agent named [P:Marcus].',
  'Please ask for [P:Tomasz Nowak] when you call back.',
  "It's [P:Rebecca Lindqvist], account holder.",
  'My son [P:Ethan] set up the autopay, not me.',
  "I'm calling on behalf of my mother, [P:Loretta Haynes].",
  'The card is in my husband\'s name, [P:Curtis Bell].',
  // names without cues
  '[P:Angela Moretti] called twice about the same refund.',
  'I already sent the forms to [P:Hiroshi Tanaka] last week.',
  'Please note that [P:Sofia] will pick up the package.',
  'Thanks [P:Jerome], that really helps.',
  '[P:Ms. Fitzgerald] approved the credit on Monday.',
  'Can you confirm the account for [P:Oluwaseun Adeyemi]?',
  'I talked to [P:Brenda] and [P:Luis] at the front desk.',
  'According to [P:Hiroshi], the refund was approved.',
  '[P:Carlos Mendoza-Ruiz] is the primary cardholder.',
  // addresses
  'I live at [A:42 Oak Street, Springfield, IL 62704].',
  'Please ship it to [A:1600 Pennsylvania Avenue NW, Washington, DC 20500].',
  'My new address is [A:785 Maple Ridge Drive, Apt 12B].',
  'Send the replacement card to [A:PO Box 4471, Tulsa, OK 74101].',
  'We moved to [A:3021 West Lakeview Blvd, Suite 300, Chicago, Illinois 60613] in March.',
  'The billing address should be [A:9 Elm Ct].',
  'Mail it to [A:12 Harbor View Lane, Portland, Maine 04101], please.',
  'My address is [A:250 North Main St., Unit 5, Austin, TX 78701].',
  'I used to live on [A:Birchwood Avenue] but moved last year.',
  'The package went to [A:18 Cedar Court] instead of [A:81 Cedar Court].',
  'Our office is at [A:500 Fifth Avenue, New York, NY 10110].',
  'Address: [A:77 Sunset Blvd., Los Angeles, CA 90028]',
  'City and zip: [A:Denver, CO 80202].',
  // negatives
  'Will you be paying the full balance today?',
  'I may need to grant my accountant access to the bill.',
  'Mark the ticket as resolved and close it.',
  'We offer Apple Pay and Google Pay on the app.',
  'The Microsoft Surface is out of stock at Best Buy.',
  'I am calling about the Amazon Prime charge.',
  'Your payment of 45 dollars was received on June 5.',
  'Is there a branch in Dallas or Houston?',
  'I ordered 2 large boxes and 3 small ones.',
  'Sure, I can hold for a minute.',
  'Hope you have a great day, and thanks for your patience.',
  'The total comes to 120 dollars with tax.',
  'The Grand Canyon tour was amazing, we drove Route 66.',
  'The Chase Sapphire card earns double miles.',
  'Frank feedback is always welcome.',
  'Please wait while I pull up the account.',
  'The Lincoln Financial plan covers dental.',
  // added after the recognizers were changed (not looked at before the figures were taken)
  'Hello, you have reached [P:Darnell] at the help desk.',
  'The cheque was made out to [P:Mrs. Eleanor Whitcombe].',
  'My daughter [P:Aaliyah] will call you tomorrow.',
  'Please update it to [A:4417 S. Greenway Rd, Apt 3, Mesa, AZ 85212].',
  'Mail goes to [A:P.O. Box 88, Bangor, ME 04402] now.',
  'We sell Dell and Lenovo laptops in every store.',
  'Can you grant me an extension until May?',
];

export const HELDOUT_SPOKEN: string[] = [
  // names after cues
  'thank you for calling this is [P:keisha] speaking how can i help you',
  'hi my name is [P:dmitri volkov] and i have a question about my bill',
  'the account is under my wife [P:priya raman]',
  'could i speak with [P:mister okafor] please',
  'my last name is [P:lindqvist] [P:l i n d q v i s t]',
  'can you transfer me to [P:gwendolyn] in billing',
  'please ask for [P:tomasz nowak] when you call back',
  'my son [P:ethan] set up the autopay',
  'yes this is [P:doctor ana li] returning your call',
  'the card is in my husband\'s name [P:curtis bell]',
  'first name [P:marguerite] last name [P:oyelaran]',
  'i spoke with [P:jasmine] yesterday and she said it was fixed',
  // names without cues
  '[P:angela moretti] called twice about the same refund',
  'i already sent the forms to [P:hiroshi tanaka] last week',
  'thanks [P:jerome] that really helps',
  '[P:patrick o\'neill] is the name on the account',
  'i talked to [P:brenda] and [P:luis] at the front desk',
  'according to [P:hiroshi] the refund was approved',
  '[P:carlos mendoza] is the primary cardholder',
  // addresses
  'i live at [A:forty two oak street springfield illinois six two seven oh four]',
  'please ship it to [A:sixteen hundred pennsylvania avenue washington]',
  'my new address is [A:seven eight five maple ridge drive apartment twelve b]',
  'send the card to [A:p o box four four seven one tulsa oklahoma]',
  'we moved to [A:three oh two one west lakeview boulevard suite three hundred chicago]',
  'the billing address should be [A:nine elm court]',
  'mail it to [A:twelve harbor view lane portland maine oh four one oh one] please',
  'it\'s [A:two fifty north main street unit five austin texas seven eight seven oh one]',
  'i used to live on [A:birchwood avenue] but moved last year',
  'the address is [A:one two three fourth street]',
  'it went to [A:eighteen cedar court] instead of [A:eighty one cedar court]',
  'the zip is [A:eight oh two oh two]',
  'my address is [A:twenty three hundred west elm avenue denver colorado]',
  // negatives
  'will you be paying the full balance today',
  'i may need to grant my accountant access to the bill',
  'mark the ticket as resolved and close it',
  'we offer apple pay and google pay on the app',
  'i am calling about the amazon prime charge',
  'your payment of forty five dollars was received on june fifth',
  'is there a branch in dallas or houston',
  'i ordered two large boxes and three small ones',
  'sure i can hold for a minute',
  'hope you have a great day and thanks for your patience',
  'the total comes to one hundred twenty dollars with tax',
  'i would like to speak to a supervisor please',
  'can you walk me through the steps',
  'the price went up by five dollars',
  'i will be at the office at three',
  'the chase sapphire card earns double miles',
  'please wait while i pull up the account',
  'the lincoln financial plan covers dental',
  'i bill my clients every may and june',
  'we will grant you a credit of ten dollars',
  // added after the recognizers were changed
  'hello you have reached [P:darnell] at the help desk',
  'my daughter [P:aaliyah] will call you tomorrow',
  'please update it to [A:forty four seventeen south greenway road apartment three mesa arizona]',
  'mail goes to [A:post office box eighty eight bangor maine] now',
  'we sell dell and lenovo laptops in every store',
  'can you grant me an extension until may',
];

export interface HeldoutSample {
  /** The text (written) or the words joined by spaces (spoken). */
  text: string;
  words?: string[];
  gold: { kind: EntityKind; start: number; end: number }[];
}

/** Parse "[P:...]" / "[A:...]" marks into text and gold spans. */
export function parseMarked(marked: string, spoken: boolean): HeldoutSample {
  const gold: HeldoutSample['gold'] = [];
  let text = '';
  let last = 0;
  for (const m of marked.matchAll(/\[([PA]):([^\]]+)\]/g)) {
    text += marked.slice(last, m.index);
    const start = text.length;
    text += m[2];
    gold.push({ kind: m[1] === 'P' ? 'Person' : 'Address', start, end: text.length });
    last = m.index! + m[0].length;
  }
  text += marked.slice(last);
  return spoken ? { text, words: text.split(' '), gold } : { text, gold };
}

export const heldoutWritten = (): HeldoutSample[] => HELDOUT_WRITTEN.map((s) => parseMarked(s, false));
export const heldoutSpoken = (): HeldoutSample[] => HELDOUT_SPOKEN.map((s) => parseMarked(s, true));
