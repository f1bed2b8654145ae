// The entity kinds redaction rules may name: the interface's (Person, Address, USSocialSecurityNumber) and
// DESIGN.md's extensions, in the same naming. Recognizers for each arrive with the redaction stage.
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
  'DateOfBirth',
  'USDriversLicenseNumber',
  'USPassportNumber',
  'IPAddress',
  'ZipCode',
] as const;

export type EntityKind = (typeof ENTITY_KINDS)[number];

const kinds: ReadonlySet<string> = new Set(ENTITY_KINDS);

export function isEntityKind(name: string): name is EntityKind {
  return kinds.has(name);
}
