import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalNet } from '../../reference-server/src/localnet/startLocalNet.js';
import { installWebSocket } from '../clients/support/installWebSocket.js';
import { externalParty, guideEventsSdk, signAndRun } from './guideSdk.js';
import { startTestLocalNet } from './support.js';
import { quietSdkLogs } from '../clients/support/quietSdkLogs.js';

quietSdkLogs();

const PING = '#canton-builtin-admin-workflow-ping:Canton.Internal.Ping:Ping';

/** Script 12-subscribe-to-events: completions and updates over the ledger's WebSocket, through wallet-sdk 1.4.0's events namespace. */
describe('wallet guide flows on serve --localnet: event subscriptions', () => {
  let net: LocalNet;
  let sdk: Awaited<ReturnType<typeof guideEventsSdk>>;
  beforeAll(async () => {
    installWebSocket();
    net = await startTestLocalNet();
    sdk = await guideEventsSdk(net);
  });
  afterAll(() => net.close());

  /** Reads a stream in the background up to the first item `done` accepts (or the test times out). */
  function collect<T>(stream: AsyncIterableIterator<T>, done: (item: T) => boolean): Promise<T[]> {
    return (async () => {
      const items: T[] = [];
      for await (const item of stream) {
        items.push(item);
        if (done(item)) break;
      }
      return items;
    })();
  }

  it('12: a party\'s completions from offset 0 and its Ping updates arrive as it pings itself', async () => {
    const charlie = await externalParty(sdk as never, 'guide-12-charlie');
    const completions = collect(sdk.events.completions({ beginOffset: 0, parties: [charlie.partyId] } as never), () => true);
    // From the beginning: the party's onboarding (a topology transaction) comes first, then the ping.
    const updates = collect(sdk.events.updates({ partyId: charlie.partyId, templateIds: [PING] } as never), (u) => 'Transaction' in ((u as { update?: object }).update ?? {}));
    const result = await signAndRun(sdk as never, charlie, sdk.utils.ping.create([{ initiator: charlie.partyId, responder: charlie.partyId }]));

    const [completion] = (await completions) as { completionResponse?: { Completion?: { value?: { updateId?: string; actAs?: string[] } } } }[];
    expect(completion?.completionResponse?.Completion?.value).toMatchObject({ updateId: result.updateId, actAs: [charlie.partyId] });
    const seen = (await updates) as { update?: { Transaction?: { value?: { updateId?: string; events?: { CreatedEvent?: { templateId: string } }[] } }; TopologyTransaction?: object } }[];
    expect(seen.map((u) => Object.keys(u.update ?? {})[0])).toEqual(['TopologyTransaction', 'Transaction']);
    const update = seen[1];
    expect(update?.update?.Transaction?.value?.updateId).toBe(result.updateId);
    expect(update?.update?.Transaction?.value?.events?.[0]?.CreatedEvent?.templateId).toMatch(/:Canton\.Internal\.Ping:Ping$/);
  }, 60_000);
});
