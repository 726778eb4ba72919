import { activeContracts, archiveContract, createContract, eventFormat, ledgerEnd, readParty, suiteParty } from './support/ledger.js';
import { expectCantonError, expectStatus, isBase64 } from './support/expect.js';
import { LedgerOp, SD_B, UPSTREAM_B } from './ledgerOps.js';
import type { CheckDefinition } from './types.js';

const check = (c: Omit<CheckDefinition, 'group' | 'operationId'> & { operationId?: string }): CheckDefinition => ({ group: 'ledger', operationId: LedgerOp.activeContracts, ...c });

const readerParty = readParty;

export const ledgerStateChecks: readonly CheckDefinition[] = [
  check({
    id: 'ledger.ledger-end.advances-on-commit',
    title: 'A committed command moves the ledger end to at least its completion offset',
    operationId: LedgerOp.ledgerEnd,
    level: 'MUST',
    kind: 'example',
    specRef: `${SD_B}: ledger end = latest absolute offset; ${UPSTREAM_B} offsets strictly increasing`,
    requires: { writes: true },
    async run(ctx) {
      const party = await suiteParty(ctx);
      const before = await ledgerEnd(ctx);
      const created = await createContract(ctx, party);
      if (!(created.completionOffset > before.offset)) ctx.fail(`the transaction's offset ${created.completionOffset} is not after the earlier ledger end ${before.offset}`, created.exchange);
      const after = await ledgerEnd(ctx);
      if (after.offset < created.completionOffset) ctx.fail(`ledger end ${after.offset} is behind the offset ${created.completionOffset} of a committed transaction`, after.exchange);
    },
  }),
  check({
    id: 'ledger.submit.visible-in-acs',
    title: 'After submit-and-wait, the created contract is active at the new ledger end',
    operationId: LedgerOp.submitAndWait,
    level: 'MUST',
    kind: 'example',
    specRef: `${SD_B}: submit-and-wait; active contracts at ledger end = most recent state`,
    requires: { writes: true },
    async run(ctx) {
      const party = await suiteParty(ctx);
      const created = await createContract(ctx, party);
      const end = await ledgerEnd(ctx);
      const { exchange, contracts } = await activeContracts(ctx, party, end.offset, { templateId: ctx.profile.ledger?.template?.templateId });
      if (!contracts.some((c) => c.createdEvent.contractId === created.contractId)) ctx.fail(`contract ${created.contractId} is not among the ${contracts.length} active contracts at ledger end ${end.offset}`, exchange);
    },
  }),
  check({
    id: 'ledger.acs.created-event-blob',
    title: 'includeCreatedEventBlob: true returns a base64 createdEventBlob for every contract; false returns none',
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_B}: createdEventBlob filled only when the filter asks for it`,
    async run(ctx) {
      const party = await readerParty(ctx);
      if (ctx.profile.writes && party !== undefined && ctx.profile.ledger?.template) await createContract(ctx, party);
      const end = await ledgerEnd(ctx);
      const withBlob = await activeContracts(ctx, party, end.offset, { blob: true });
      if (withBlob.contracts.length === 0) ctx.skip('no active contract is visible to read a blob from (give ledger.party, or allow writes)');
      const missing = withBlob.contracts.find((c) => !isBase64(c.createdEvent.createdEventBlob));
      if (missing) ctx.fail(`contract ${missing.createdEvent.contractId} has no base64 createdEventBlob although includeCreatedEventBlob is true`, withBlob.exchange);
      const without = await activeContracts(ctx, party, end.offset, { blob: false });
      const leaked = without.contracts.find((c) => typeof c.createdEvent.createdEventBlob === 'string' && c.createdEvent.createdEventBlob !== '');
      if (leaked) ctx.fail(`contract ${leaked.createdEvent.contractId} carries a createdEventBlob although includeCreatedEventBlob is false`, without.exchange);
    },
  }),
  check({
    id: 'ledger.acs.active-at-offset',
    title: 'Active contracts at an older offset show the state then: a later contract is absent; each created event carries the offset that created it',
    level: 'MUST',
    kind: 'example',
    specRef: `${SD_B}: activeAtOffset (an older non-pruned offset yields the state at that point); ${UPSTREAM_B}: CreatedEvent.offset (the offset of origin)`,
    requires: { writes: true },
    async run(ctx) {
      const party = await suiteParty(ctx);
      const templateId = ctx.profile.ledger?.template?.templateId;
      const first = await createContract(ctx, party);
      const second = await createContract(ctx, party);
      const then = await activeContracts(ctx, party, first.completionOffset, { templateId });
      const ids = then.contracts.map((c) => c.createdEvent.contractId);
      if (!ids.includes(first.contractId)) ctx.fail(`contract ${first.contractId}, created at offset ${first.completionOffset}, is missing at that offset`, then.exchange);
      if (ids.includes(second.contractId)) ctx.fail(`contract ${second.contractId}, created at offset ${second.completionOffset}, is already active at the earlier offset ${first.completionOffset}`, then.exchange);
      // A later snapshot still dates each contract by the transaction that created it (wallets order
      // holdings and resume streams from createdEvent.offset), not by the snapshot's offset.
      const later = await activeContracts(ctx, party, second.completionOffset, { templateId });
      for (const c of [first, second]) {
        const ev = later.contracts.find((x) => x.createdEvent.contractId === c.contractId)?.createdEvent;
        if (ev === undefined) ctx.fail(`contract ${c.contractId}, created at offset ${c.completionOffset}, is missing at offset ${second.completionOffset}`, later.exchange);
        else if (ev.offset !== c.completionOffset) ctx.fail(`at offset ${second.completionOffset} contract ${c.contractId} reports createdEvent.offset ${JSON.stringify(ev.offset)}; it was created at offset ${c.completionOffset}`, later.exchange);
      }
    },
  }),
  check({
    id: 'ledger.archive.removed-at-new-end',
    title: 'Archiving removes a contract at the new ledger end but not at the offset before',
    operationId: LedgerOp.submitAndWait,
    level: 'MUST',
    kind: 'example',
    specRef: `${SD_B}: active contracts at ledger end vs an older offset`,
    requires: { writes: true },
    async run(ctx) {
      const party = await suiteParty(ctx);
      const templateId = ctx.profile.ledger?.template?.templateId;
      const created = await createContract(ctx, party);
      const archived = await archiveContract(ctx, party, created);
      const now = await activeContracts(ctx, party, archived.completionOffset, { templateId });
      if (now.contracts.some((c) => c.createdEvent.contractId === created.contractId)) ctx.fail(`archived contract ${created.contractId} is still active at offset ${archived.completionOffset}`, now.exchange);
      const before = await activeContracts(ctx, party, created.completionOffset, { templateId });
      if (!before.contracts.some((c) => c.createdEvent.contractId === created.contractId)) ctx.fail(`contract ${created.contractId} is missing at offset ${created.completionOffset}, before its archival`, before.exchange);
    },
  }),
  check({
    id: 'ledger.acs.offset-after-ledger-end',
    title: 'activeAtOffset beyond the ledger end is 400 OFFSET_AFTER_LEDGER_END',
    level: 'MUST',
    kind: 'negative',
    specRef: `${UPSTREAM_B}: OFFSET_AFTER_LEDGER_END (category 12, HTTP 400)`,
    async run(ctx) {
      const party = await readerParty(ctx);
      const end = await ledgerEnd(ctx);
      const e = await ctx.http.request('ledger', { method: 'POST', path: '/v2/state/active-contracts', json: { activeAtOffset: end.offset + 100, eventFormat: eventFormat(party) } });
      expectStatus(ctx, e, 400, `active contracts at ledger end + 100 (${end.offset + 100})`);
      expectCantonError(ctx, e, 'offset after ledger end', ['OFFSET_AFTER_LEDGER_END']);
    },
  }),
  check({
    id: 'ledger.acs.offset-zero-empty',
    title: 'Active contracts at offset 0 (ledger begin) are empty',
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_B}: activeAtOffset 0 returns an empty set`,
    async run(ctx) {
      const party = await readerParty(ctx);
      const { exchange, contracts } = await activeContracts(ctx, party, 0);
      if (contracts.length > 0) ctx.fail(`${contracts.length} contract(s) are active at offset 0`, exchange);
    },
  }),
];
