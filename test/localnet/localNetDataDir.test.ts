import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../reference-server/src/http/api/consoleLogger.js';
import { startLocalNet } from '../../reference-server/src/localnet/startLocalNet.js';
import { localNetToken, loopbackUrls } from './support.js';

const PING = '#canton-builtin-admin-workflow-ping:Canton.Internal.Ping:Ping';

/** `serve --localnet --data-dir DIR`: a restart keeps the validator party, its user and LocalNet's built-in contracts. */
describe('serve --localnet with a data directory', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cc-localnet-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const start = () => startLocalNet({ host: '127.0.0.1', fixtures: undefined, dataDir: dir, ports: { ledger: 0, validator: 0, scan: 0, tokenStandard: 0, appProviderLedger: 0 }, log: silentLogger });

  it('resumes with the same validator party and a Ping created before the restart', async () => {
    const headers = { authorization: `Bearer ${await localNetToken()}`, 'content-type': 'application/json' };
    const first = await start();
    const v = first.validatorParty;
    const created = await fetch(`${loopbackUrls(first).ledger}/v2/commands/submit-and-wait`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ commands: [{ CreateCommand: { templateId: PING, createArguments: { id: randomUUID(), initiator: v, responder: v } } }], commandId: randomUUID(), userId: 'ledger-api-user', actAs: [v] }),
    });
    expect(created.status).toBe(200);
    await first.close();

    const second = await start();
    try {
      expect(second.validatorParty).toBe(v);
      const u = loopbackUrls(second);
      expect(((await (await fetch(`${u.validator}/v0/validator-user`)).json()) as { party_id: string }).party_id).toBe(v);
      const end = ((await (await fetch(`${u.ledger}/v2/state/ledger-end`, { headers })).json()) as { offset: number }).offset;
      const acs = await fetch(`${u.ledger}/v2/state/active-contracts`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ activeAtOffset: end, eventFormat: { filtersByParty: { [v]: { cumulative: [{ identifierFilter: { TemplateFilter: { value: { templateId: PING, includeCreatedEventBlob: false } } } }] } }, verbose: false } }),
      });
      expect(acs.status).toBe(200);
      expect(((await acs.json()) as unknown[]).length).toBe(1);
    } finally {
      await second.close();
    }
  }, 30_000);
});
