// The bundled PocketSphinx models as the engine's decoders take them, for tests that drive a decoder directly.
import assert from 'node:assert/strict';
import { installedModels } from '../../src/engine/models.js';
import type { PocketSphinxModel } from '../../src/engine/pocketsphinx/decoder.js';

/** An installed PocketSphinx model by name (fails the test when it is not installed). */
export function pocketSphinxModel(name = 'en-us:wideband'): PocketSphinxModel {
  const info = installedModels().find((m) => m.name === name);
  assert.ok(info?.files, `${name} is installed`);
  return { ...info.files, sampleRate: info.sampleRate };
}
