/**
 * Canton contract ids: hex, a version byte `00`, a 32-byte discriminator, then an optional
 * suffix. Anything else cannot name a contract, and the registry answers 400 rather than 404.
 */
const CONTRACT_ID = /^00[0-9a-f]{64}(?:[0-9a-f]{2}){0,223}$/;

export function isContractIdSyntax(id: string): boolean {
  return CONTRACT_ID.test(id);
}
