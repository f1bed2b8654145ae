// The fields of the interface that carry credentials. Their values are encrypted at rest, masked in every
// response and never logged. Matching is by field name at any depth of any record.
export const CREDENTIAL_FIELDS = [
  'appKey',
  'appSecret',
  'acessKey', // spelled so in the interface
  'secretKey',
  'apiKey',
  'apiKeyCloud',
  'secretKeyCloud',
  'engine_token',
  'token',
  'accessUrl',
  'webhookSecrets', // a project's or the system's notification signing secrets (set-parameter)
  // A presigned recording URL (cloudStoragePath) as the service keeps it: its query is a bearer credential.
  'cloudStorageUrl',
] as const;

export type CredentialField = (typeof CREDENTIAL_FIELDS)[number];

const credentialSet: ReadonlySet<string> = new Set(CREDENTIAL_FIELDS);

export function isCredentialField(name: string): boolean {
  return credentialSet.has(name);
}
