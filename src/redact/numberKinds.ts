// The entity kinds said as digits: a card, a code, a date, an account read out. A cue for one of them opens a
// number window (live streams), and a job that redacts one in audio has its redacted copy listened to for digits
// still said (jobs/copyRecheck.ts) even when no window was found.
import type { EntityKind } from './entityKinds.js';

export const NUMBER_KINDS: readonly EntityKind[] = [
  'CreditCardNumber',
  'CVV',
  'ExpirationDate',
  'USSocialSecurityNumber',
  'DateOfBirth',
  'USBankAccountNumber',
  'ABARoutingNumber',
  'USDriversLicenseNumber',
  'USPassportNumber',
  'PhoneNumber',
  'ZipCode',
];

/** Does a policy's list of kinds hold a kind said as digits? */
export function redactsNumbers(kinds: readonly string[]): boolean {
  return NUMBER_KINDS.some((k) => kinds.includes(k));
}
