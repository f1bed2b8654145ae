// The entity kinds redaction rules may name: the interface's (Person, Address, USSocialSecurityNumber) and
// DESIGN.md's extensions, in the same naming. Optional kinds are redacted only when named (in `types`, or as a
// project rule): "every kind" (`all`, `*`, scrubbing without naming kinds) means the default kinds. Organization is
// optional: a company name is rarely personal data on a call (the agent's own company is said in every greeting),
// and masking it in every transcript would hide what the call was about. URL (web addresses) likewise: agents read
// out the company's own pages all day; a caller's personal site is named by asking for URL.
export const ENTITY_KINDS = [
  'Person',
  'Address',
  'USSocialSecurityNumber',
  'PhoneNumber',
  'Email',
  'CreditCardNumber',
  'CVV',
  'ExpirationDate',
  'USBankAccountNumber',
  'ABARoutingNumber',
  'IBAN',
  'DateOfBirth',
  'USDriversLicenseNumber',
  'USPassportNumber',
  'IPAddress',
  'ZipCode',
  'Organization',
  'URL',
] as const;

export type EntityKind = (typeof ENTITY_KINDS)[number];

/** Kinds redacted only when named. */
export const OPTIONAL_KINDS: readonly EntityKind[] = ['Organization', 'URL'];

/** "Every kind": what `all`, `*` and scrubbing without naming kinds mean (ENTITY_KINDS order). */
export const DEFAULT_KINDS: readonly EntityKind[] = ENTITY_KINDS.filter((k) => !OPTIONAL_KINDS.includes(k));

const kinds: ReadonlySet<string> = new Set(ENTITY_KINDS);

export function isEntityKind(name: string): name is EntityKind {
  return kinds.has(name);
}
