/**
 * Smart contract upgrades through interactive submission: an external party's contract of a
 * package's 1.0.0, exercised through 2.0.0's template once 2.0.0 is uploaded. Prepare answers the
 * exercise node of 2.0.0 on the 1.0.0 input contract, hashed as core-tx-visualizer recomputes it;
 * execute commits exactly that transaction, its exercised event naming 2.0.0; an interface choice
 * runs 2.0.0's instance at prepare and again at execute. Built packages only.
 */
import { PreparedTransaction } from '@canton-network/core-ledger-proto';
import { hashPreparedTransaction } from '@canton-network/core-tx-visualizer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildShownInterface, buildUpgradePackage, SHOWN_MODULE, UPGRADE_MODULE } from '../../conformance/src/reinterpret/ownPackage.js';
import { createLedger, ManualClock } from '../../reference-server/src/ledger/index.js';
import { post } from '../http/support/ledgerApi.js';
import { upload } from '../http/support/packages.js';
import { startServer, type TestServer } from '../http/support/startServer.js';
import { executeBody, onboard, prepareBody } from './support/externalParties.js';
import { newKey, signHash, type TestKey } from './support/keys.js';

const NAME = 'cc-interactive-upgrade';
const SHOWN = buildShownInterface('cc-interactive-shown');
const [V1, V2] = [buildUpgradePackage(NAME, '1.0.0', SHOWN), buildUpgradePackage(NAME, '2.0.0', SHOWN)];
const holding = (p: { id: string }) => `${p.id}:${UPGRADE_MODULE}:Holding`;
const USER = 'wallet';

interface Prepared { preparedTransaction: string; preparedTransactionHash: string; hashingSchemeVersion: string }
interface Event { CreatedEvent?: { contractId: string; templateId: string }; ExercisedEvent?: { templateId: string; exerciseResult: unknown } }

let server: TestServer;
let owner: string;
let key: TestKey;
let sync: string;

beforeAll(async () => {
  server = await startServer({ ledger: createLedger({ clock: new ManualClock(Date.UTC(2026, 0, 15, 12)) }) });
  sync = server.ledger.config.synchronizers[0]!.id;
  key = newKey('ed25519');
  owner = await onboard(server, {}, 'upgrade-ext', key, sync);
});
afterAll(() => server.close());

async function run(commands: unknown[]): Promise<{ p: Prepared; events: Event[] }> {
  const prepared = await post(server, '/v2/interactive-submission/prepare', { ...prepareBody(owner, commands), actAs: [owner], userId: USER });
  expect(prepared.status, prepared.text).toBe(200);
  const p = prepared.body as Prepared;
  const res = await post(server, '/v2/interactive-submission/executeAndWaitForTransaction', {
    ...executeBody(p.preparedTransaction, [{ party: owner, signatures: [signHash(key, p.preparedTransactionHash)] }], { hashingSchemeVersion: p.hashingSchemeVersion, userId: USER }),
    transactionFormat: { eventFormat: { filtersByParty: { [owner]: {} }, verbose: true }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' },
  }, { unchecked: true });
  expect(res.status, res.text).toBe(200);
  return { p, events: res.body.transaction.events as Event[] };
}

describe('interactive submission across package versions', () => {
  it('prepares and executes 2.0.0\'s choice on a 1.0.0 contract: the node names 2.0.0, the hash is Canton\'s, the event names 2.0.0', async () => {
    expect((await upload(server, `/v2/dars?synchronizerId=${encodeURIComponent(sync)}`, V1.dar({ dependencies: [SHOWN.dalf] }))).status).toBe(200);
    const created = await run([{ CreateCommand: { templateId: holding(V1), createArguments: { owner, amount: '5' } } }]);
    const contract = created.events[0]?.CreatedEvent;
    expect(contract?.templateId).toBe(holding(V1));
    expect((await upload(server, `/v2/dars?synchronizerId=${encodeURIComponent(sync)}`, V2.dar({ dependencies: [SHOWN.dalf] }))).status).toBe(200);

    const { p, events } = await run([{ ExerciseCommand: { templateId: holding(V2), contractId: contract!.contractId, choice: 'Memo', choiceArgument: {} } }]);
    expect(await hashPreparedTransaction(p.preparedTransaction, 'base64')).toBe(p.preparedTransactionHash);
    const tx = PreparedTransaction.fromBinary(Buffer.from(p.preparedTransaction, 'base64'));
    const node = tx.transaction!.nodes[0]!.versionedNode;
    const exercise = node.oneofKind === 'v1' && node.v1.nodeType.oneofKind === 'exercise' ? node.v1.nodeType.exercise : undefined;
    expect(exercise?.templateId?.packageId).toBe(V2.id);
    expect(events[0]?.ExercisedEvent).toMatchObject({ templateId: holding(V2), exerciseResult: null });

    // Through the interface: the version selected at prepare (2.0.0, ten times the amount) runs,
    // and execute runs the signed version again.
    const shown = await run([{ ExerciseCommand: { templateId: `${SHOWN.id}:${SHOWN_MODULE}:Shown`, contractId: contract!.contractId, choice: 'Show', choiceArgument: { reader: owner } } }]);
    expect(await hashPreparedTransaction(shown.p.preparedTransaction, 'base64')).toBe(shown.p.preparedTransactionHash);
    expect(shown.events[0]?.ExercisedEvent).toMatchObject({ templateId: holding(V2), exerciseResult: '50' });
  });

  it('resolves a package name on prepare as on submit: the highest vetted version, or the one packageIdSelectionPreference names', async () => {
    // Both versions were uploaded by the test above (vitest runs a file's tests in order).
    const createdPackage = async (preference?: string[]) => {
      const res = await post(server, '/v2/interactive-submission/prepare', {
        ...prepareBody(owner, [{ CreateCommand: { templateId: `#${NAME}:${UPGRADE_MODULE}:Holding`, createArguments: { owner, amount: '1' } } }]),
        actAs: [owner], userId: USER, ...(preference === undefined ? {} : { packageIdSelectionPreference: preference }),
      });
      expect(res.status, res.text).toBe(200);
      const tx = PreparedTransaction.fromBinary(Buffer.from((res.body as Prepared).preparedTransaction, 'base64'));
      const node = tx.transaction!.nodes[0]!.versionedNode;
      return node.oneofKind === 'v1' && node.v1.nodeType.oneofKind === 'create' ? node.v1.nodeType.create.templateId?.packageId : undefined;
    };
    expect(await createdPackage()).toBe(V2.id);
    expect(await createdPackage([V1.id])).toBe(V1.id);
  });
});
