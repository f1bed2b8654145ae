// The model registry: every model the service knows, named `language:name` (V-Blaze's convention), with
// whether its files are present on this machine. The bundled engine is PocketSphinx; its model comes from
// Debian's pocketsphinx-en-us package (the speech pipeline adds the better language model and the
// telephone-band adaptation).
import fs from 'node:fs';

export interface ModelInfo {
  name: string;
  language: string;
  engine: string;
  description: string;
  /** Sample rate the model was trained on, in Hz. */
  sampleRate: number;
  installed: boolean;
  /** Why the model cannot be used, when it is not installed. */
  reason?: string;
  path?: string;
}

const POCKETSPHINX_EN_US = '/usr/share/pocketsphinx/model/en-us/en-us';

export function listModels(): ModelInfo[] {
  const present = fs.existsSync(POCKETSPHINX_EN_US);
  return [
    {
      name: 'en-us:wideband',
      language: 'en-us',
      engine: 'pocketsphinx',
      description: 'CMU PocketSphinx US English, 16 kHz wideband acoustic model',
      sampleRate: 16000,
      installed: present,
      ...(present ? { path: POCKETSPHINX_EN_US } : { reason: 'Debian package pocketsphinx-en-us is not installed' }),
    },
  ];
}

export const DEFAULT_MODEL = 'en-us:wideband';

export function installedModels(): ModelInfo[] {
  return listModels().filter((m) => m.installed);
}

export function languagesOf(models: ModelInfo[]): string[] {
  return [...new Set(models.map((m) => m.language))].sort();
}
