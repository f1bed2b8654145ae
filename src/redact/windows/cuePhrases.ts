// The default cue phrases and window bounds per redaction kind. A request ("can I have the card number") opens
// a window on the other party's following speech; a lead-in ("my card number is") on the same speaker's.
// Projects add phrases and change bounds (windowOptions.ts); they cannot remove a default phrase.
import type { EntityKind } from '../entityKinds.js';

export type PhraseList = Partial<Record<EntityKind, readonly string[]>>;

/** Said by one party to ask the other for a value. */
export const DEFAULT_REQUESTS: PhraseList = {
  CreditCardNumber: [
    'can i have the card number',
    'card number',
    'credit card number',
    'debit card number',
    'long card number',
    'the long number on the front',
    'number on the front of the card',
    'the sixteen digit number',
    'read me the card',
    'card details',
  ],
  CVV: [
    'the security code',
    'security code',
    'the three digits on the back',
    'three digit code',
    'the code on the back',
    'cvv',
    'c v v',
    'cvc',
    'c i d',
    'the three digits',
    'four digits on the front',
    'verification code',
  ],
  ExpirationDate: ['expiration date', 'expiry date', 'when does it expire', 'the expiry', 'expiration'],
  USSocialSecurityNumber: [
    'your social',
    'social security number',
    'social security',
    'last four of your social',
    'ssn',
    's s n',
  ],
  DateOfBirth: ['date of birth', 'your birthday', 'when were you born', 'birth date', 'd o b'],
  USBankAccountNumber: ['account number', 'bank account number', 'checking account number', 'savings account number'],
  ABARoutingNumber: ['routing number', 'routing', 'a b a number', 'transit number', 'first nine on the check', 'first nine digits on the check'],
  Address: ['whats your address', 'your address', 'street address', 'billing address', 'mailing address', 'where do you live'],
  Person: [
    'spell your last name',
    'spell your first name',
    'spell your name',
    'your full name',
    'your last name',
    'your first name',
    'name on the card',
    'may i have your name',
  ],
  ZipCode: ['your zip code', 'zip code', 'postal code', 'postcode'],
  PhoneNumber: ['phone number', 'callback number', 'best number to reach you', 'telephone number'],
  Email: ['email address', 'your email'],
  USDriversLicenseNumber: ['drivers license number', 'license number'],
  USPassportNumber: ['passport number'],
};

/** Said by a speaker just before giving their own value. */
export const DEFAULT_LEAD_INS: PhraseList = {
  CreditCardNumber: ['my card number is', 'the card number is', 'my credit card number is', 'my card is'],
  CVV: ['the security code is', 'the code on the back is', 'the three digits are', 'the cvv is', 'the c v v is', 'the c i d is'],
  ExpirationDate: ['it expires', 'the expiration date is', 'expiry is'],
  USSocialSecurityNumber: ['my social is', 'my social security number is', 'my social security is'],
  DateOfBirth: ['i was born on', 'my birthday is', 'my date of birth is'],
  USBankAccountNumber: ['my account number is', 'the account number is'],
  ABARoutingNumber: ['the routing number is', 'my routing number is'],
  Address: ['i live at', 'my address is'],
  Person: ['my name is', 'my last name is', 'its spelled'],
  ZipCode: ['my zip code is', 'my zip is', 'my postcode is', 'my postal code is'],
  PhoneNumber: ['my number is', 'my phone number is'],
  Email: ['my email is', 'my email address is'],
};

/** How long a window may stay open after its cue, in seconds, per kind (a card read in groups takes ~30 s). */
export const DEFAULT_MAX_SECONDS: Partial<Record<EntityKind, number>> = {
  CreditCardNumber: 30,
  USBankAccountNumber: 30,
  ABARoutingNumber: 20,
  USSocialSecurityNumber: 20,
  Address: 20,
  Person: 15,
  PhoneNumber: 15,
  USDriversLicenseNumber: 20,
  USPassportNumber: 20,
  Email: 20,
  DateOfBirth: 10,
  ExpirationDate: 10,
  ZipCode: 10,
  CVV: 8,
};

/** The bound for a kind with none listed. */
export const FALLBACK_MAX_SECONDS = 20;

/**
 * Single words that say which value is being talked about. Too common to open a window alone ("I paid by
 * card"), they give a number run heard soon after on another party (or later from the same one) the context of
 * a cue: when the recognizer mangles "can I have the card number" into "the a. m. card i'm lee you", the word
 * "card" and four digit-like words after it still make a card window.
 */
export const DEFAULT_HINT_WORDS: PhraseList = {
  CreditCardNumber: ['card', 'visa', 'mastercard', 'amex', 'discover'],
  USSocialSecurityNumber: ['social', 'ssn'],
  USBankAccountNumber: ['account', 'checking', 'savings'],
  ABARoutingNumber: ['routing'],
  DateOfBirth: ['birth', 'born', 'birthday'],
  CVV: ['cvv'],
  ExpirationDate: ['expiration', 'expiry', 'expires'],
  ZipCode: ['zip', 'postal'],
  PhoneNumber: ['phone', 'callback'],
  USDriversLicenseNumber: ['license'],
  USPassportNumber: ['passport'],
};
