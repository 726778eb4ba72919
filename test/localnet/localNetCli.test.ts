import { afterEach, describe, expect, it, vi } from 'vitest';
import { UsageError } from '../../conformance/src/cli/exitCodes.js';
import { parseServeArgs, run } from '../../conformance/src/cli/serve.js';
import { localNetToken } from './support.js';

describe('canton-conformance serve --localnet: arguments', () => {
  it('takes LocalNet\'s ports unless --localnet-port-base moves them', () => {
    expect(parseServeArgs(['--localnet'], {})).toMatchObject({ localnet: { portBase: undefined } });
    expect(parseServeArgs(['--localnet', '--localnet-port-base', '12000'], {})).toMatchObject({ localnet: { portBase: 12000 } });
    expect(parseServeArgs(['--localnet', '--localnet-port-base', '0'], {})).toMatchObject({ localnet: { portBase: 0 } });
    expect(parseServeArgs([], {})).not.toHaveProperty('localnet');
  });
  it('refuses what LocalNet fixes, and stray or bad values, as usage errors', () => {
    expect(() => parseServeArgs(['--localnet', '--auth', 'es256', '--auth-test-key'], {})).toThrow(/LocalNet's auth/);
    expect(() => parseServeArgs(['--localnet', '--port', '1'], {})).toThrow(/--localnet-port-base/);
    expect(() => parseServeArgs(['--localnet-port-base', '12000'], {})).toThrow(/needs --localnet/);
    expect(() => parseServeArgs(['--localnet', '--localnet-port-base', '65533'], {})).toThrow(UsageError);
    expect(() => parseServeArgs(['--localnet', '--localnet-port-base', 'x'], {})).toThrow(UsageError);
  });
});

describe('canton-conformance serve --localnet: running', () => {
  afterEach(() => vi.restoreAllMocks());

  it('prints one line with the five URLs, answers on them, and stops on SIGTERM', async () => {
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
    const exit = run(['--localnet', '--localnet-port-base', '0']);
    await vi.waitFor(() => expect(lines).toHaveLength(1), { timeout: 15_000 });
    const m = /ledger http:\/\/localhost:(\d+), validator http:\/\/localhost:(\d+)\/api\/validator, scan http:\/\/scan\.localhost:(\d+)\/api\/scan, token standard http:\/\/localhost:(\d+), app provider ledger http:\/\/localhost:(\d+) \(auth: hs256 \(LocalNet.s secret "unsafe", audience https:\/\/canton\.network\.global\); DARs: none\)$/.exec(lines[0] ?? '');
    expect(m, lines[0]).not.toBeNull();
    const [ledger, validator, scan, tokenStandard, appProvider] = m!.slice(1).map(Number);
    const auth = { authorization: `Bearer ${await localNetToken()}` };
    expect((await fetch(`http://127.0.0.1:${ledger}/v2/version`, { headers: auth })).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${validator}/api/validator/v0/validator-user`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${scan}/api/scan/v0/dso`, { headers: auth })).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${tokenStandard}/registry/metadata/v1/info`, { headers: auth })).status).toBe(200);
    expect(await (await fetch(`http://127.0.0.1:${appProvider}/v2/parties/participant-id`, { headers: auth })).json()).toEqual({ participantId: expect.stringMatching(/^app-provider::1220/) });
    process.emit('SIGTERM');
    await expect(exit).resolves.toBe(0);
    await expect(fetch(`http://127.0.0.1:${validator}/api/validator/v0/validator-user`)).rejects.toThrow();
  });
});
