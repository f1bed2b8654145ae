// Resource 16: system settings. apiKey, secretKey, apiKeyCloud and secretKeyCloud are credentials.
import type { Static } from 'typebox';
import { bool, group, int, numbered, open, str } from '../fields.js';

export const SYSTEM_SETTINGS_ENGINES = [
  'entityEngine', 'emotionEngine', 'categoryEngine', 'hippaEngine', 'intentEngine', 'phrasesEngine', 'piiEngine',
  'sentimentEngine',
] as const;

export const SystemSettings = open(
  {
    ...group(SYSTEM_SETTINGS_ENGINES, int),
    ...group(
      ['endpoint', 'apiKey', 'secretKey', 'apiKeyCloud', 'secretKeyCloud', 'region', 'bucket', 'folder', ...numbered('feature', 5)],
      str,
    ),
    ...group(numbered('flag', 5), bool),
  },
  { title: 'systemSettings', description: 'Resource 16. apiKey, secretKey, apiKeyCloud and secretKeyCloud are credentials.' },
);
export type SystemSettings = Static<typeof SystemSettings>;
