/**
 * The DAR `test` runs, inflated once for both the script runner and the participant's upload:
 * natively (node:zlib, several times fflate's speed) and within the upload's inflate bound, so a
 * zip bomb is refused before anything decodes it.
 */
import type { LoadDarResult } from '../../../daml-engine/index.js';
import { loadDarScripts } from '../../../daml-engine/index.js';
import { darEntryWanted } from '../../../reference-server/src/ledger/packages/readDar.js';
import { type UnzipResult, unzipDar } from '../../../reference-server/src/ledger/packages/unzipDar.js';

/** The DALFs and manifest an upload reads, and the Daml sources the runner keeps. */
const wanted = (name: string): boolean => darEntryWanted(name) || name.endsWith('.daml');

/** The decoded DAR and its entries (undefined when they could not be inflated: the decoder says why). */
export function readTestDar(bytes: Uint8Array): { readonly loaded: LoadDarResult; readonly inflated: UnzipResult | undefined } {
  const inflated = unzipDar(bytes, wanted);
  if (!inflated.ok && inflated.failure.kind === 'zipBomb') return { loaded: { ok: false, message: `not a readable DAR: ${inflated.failure.message}` }, inflated: undefined };
  return inflated.ok ? { loaded: loadDarScripts(bytes, inflated.files), inflated } : { loaded: loadDarScripts(bytes), inflated: undefined };
}
