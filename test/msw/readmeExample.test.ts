// This file is the README's "Mocking in your unit tests" example, verbatim: keep them in step.
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createHandlers } from 'canton-conformance/msw';

const LEDGER = 'http://ledger.test';
const ASSET = '#canton-conformance-samples:Sample.Asset:Asset';

// The code under test: your app's own call to the Ledger API (here, the amounts of the
// sample assets a party owns at the current ledger end).
async function assetAmounts(ledgerUrl: string, party: string): Promise<string[]> {
  const end = (await (await fetch(`${ledgerUrl}/v2/state/ledger-end`)).json()) as { offset: number };
  const res = await fetch(`${ledgerUrl}/v2/state/active-contracts`, {
    method: 'POST',
    body: JSON.stringify({
      activeAtOffset: end.offset,
      eventFormat: {
        filtersByParty: {
          [party]: { cumulative: [{ identifierFilter: { TemplateFilter: { value: { templateId: ASSET } } } }] },
        },
      },
    }),
  });
  if (!res.ok) throw new Error(`ledger answered ${res.status}: ${await res.text()}`);
  const entries = (await res.json()) as { contractEntry: { JsActiveContract: { createdEvent: { createArgument: { amount: string } } } } }[];
  return entries.map((e) => e.contractEntry.JsActiveContract.createdEvent.createArgument.amount);
}

const mock = createHandlers({ ledgerUrl: LEDGER });
const server = setupServer(...mock.handlers);

// onUnhandledRequest: 'error' makes an unmocked request fail, but code that catches errors
// would hide it: record unhandled requests and fail the test on them (msw issue #946).
const unhandled: string[] = [];
server.events.on('request:unhandled', ({ request }) => {
  unhandled.push(`${request.method} ${request.url}`);
});

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  mock.reset(); // a fresh, empty ledger for the next test
  expect(unhandled.splice(0), 'requests no handler answered').toEqual([]);
});
afterAll(() => server.close());

it('lists the amounts of the assets a party owns', async () => {
  const issuer = mock.allocateParty('issuer');
  const alice = mock.allocateParty('alice');
  for (const amount of ['10.0', '2.5']) {
    mock.createContract({ templateId: ASSET, createArguments: { issuer, owner: alice, amount, observers: null }, actAs: [issuer] });
  }
  expect(await assetAmounts(LEDGER, alice)).toEqual(['10.0000000000', '2.5000000000']);
});

it('surfaces the ledger error for a malformed party id', async () => {
  await expect(assetAmounts(LEDGER, 'not a party')).rejects.toThrow(/ledger answered 400/);
});
