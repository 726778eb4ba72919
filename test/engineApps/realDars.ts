/** The real Splice DARs the app flows upload, and the ids of the packages inside them (as codegen gives a client team). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readDar } from '../../reference-server/src/ledger/packages/readDar.js';
import { DARS_DIR } from '../daml/damlFixtures.js';

export const TOKEN_V1_DAR = 'splice/splice-test-token-v1-1.0.0.dar';
export const TOKEN_V2_DAR = 'splice/splice-test-token-v2-1.0.0.dar';
export const TRADING_APP_DAR = 'splice/splice-token-test-trading-app-1.0.2.dar';

export const darBytes = (relative: string): Uint8Array => new Uint8Array(readFileSync(join(DARS_DIR, relative)));

/** The id of the package `name` the DAR carries. */
export function packageIdIn(relative: string, name: string): string {
  const dar = readDar(darBytes(relative));
  if (!dar.ok) throw new Error(dar.error.reason);
  const found = dar.value.packages.find((p) => p.packageName === name);
  if (found === undefined) throw new Error(`${relative} carries no ${name}`);
  return found.packageId;
}

/** Token-standard v1 interface ids as the test token's DAR carries them. */
export const tokenStandardV1 = () => {
  const id = (pkg: string, qualified: string) => `${packageIdIn(TOKEN_V1_DAR, pkg)}:${qualified}`;
  return {
    holding: id('splice-api-token-holding-v1', 'Splice.Api.Token.HoldingV1:Holding'),
    transferFactory: id('splice-api-token-transfer-instruction-v1', 'Splice.Api.Token.TransferInstructionV1:TransferFactory'),
    transferInstruction: id('splice-api-token-transfer-instruction-v1', 'Splice.Api.Token.TransferInstructionV1:TransferInstruction'),
    allocationFactory: id('splice-api-token-allocation-instruction-v1', 'Splice.Api.Token.AllocationInstructionV1:AllocationFactory'),
    allocation: id('splice-api-token-allocation-v1', 'Splice.Api.Token.AllocationV1:Allocation'),
    allocationRequest: id('splice-api-token-allocation-request-v1', 'Splice.Api.Token.AllocationRequestV1:AllocationRequest'),
    holdingV2: id('splice-api-token-holding-v2', 'Splice.Api.Token.HoldingV2:Holding'),
  };
};
