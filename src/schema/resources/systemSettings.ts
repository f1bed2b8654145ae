// Resource 16: system settings. apiKey, secretKey, apiKeyCloud and secretKeyCloud are credentials.
import type { Static } from 'typebox';
import { bool, content, credential, group, ident, int, numbered, open } from '../fields.js';

export const SYSTEM_SETTINGS_ENGINES = [
  'entityEngine', 'emotionEngine', 'categoryEngine', 'hippaEngine', 'intentEngine', 'phrasesEngine', 'piiEngine',
  'sentimentEngine',
] as const;

export const SystemSettings = open(
  {
    ...group(SYSTEM_SETTINGS_ENGINES, int),
    ...group(['endpoint', 'region', 'bucket', 'folder'], ident),
    ...group(['apiKey', 'secretKey', 'apiKeyCloud', 'secretKeyCloud'], credential),
    ...group(numbered('feature', 5), content),
    ...group(numbered('flag', 5), bool),
  },
  { title: 'systemSettings', description: 'Resource 16. apiKey, secretKey, apiKeyCloud and secretKeyCloud are credentials.' },
);
export type SystemSettings = Static<typeof SystemSettings>;
