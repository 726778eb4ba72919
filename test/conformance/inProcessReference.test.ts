/**
 * The reference server the suite starts for itself (the oracle's, `run` without `--target`) trusts
 * the profile's tokens: a profile whose scope claim is a list (`openid daml_ledger_api profile`, as
 * an identity provider writes it) must not leave the oracle's replays refused as unauthenticated.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { loadProfile, type Profile } from '../../conformance/src/runner/profile.js';
import { startInProcessReference } from '../../conformance/src/runner/referenceServer.js';
import { claimsFor, mintToken } from '../../conformance/src/target/mintToken.js';

const base = loadProfile('reference-secured');
const signing = { alg: 'HS256' as const, secret: 'in-process-reference-secret-of-thirty-two-bytes', userId: 'participant_admin', scope: 'openid daml_ledger_api profile' };
const profile: Profile = { ...base, auth: { required: true, signing } };
const stops: (() => Promise<void>)[] = [];
afterAll(async () => { for (const stop of stops) await stop(); });

describe('the in-process reference server', () => {
  it("accepts the profile's tokens whose scope claim lists several scopes", async () => {
    const server = await startInProcessReference(profile);
    stops.push(() => server.close());
    const token = await mintToken(signing, claimsFor(signing, 'participant_admin'));
    const ok = await fetch(`${server.url}/v2/authenticated-user`, { headers: { authorization: `Bearer ${token}` } });
    expect(ok.status, await ok.text()).toBe(200);
    // And still refuses a token without any of them.
    const other = await mintToken(signing, { ...claimsFor(signing, 'participant_admin'), scope: 'email' });
    expect((await fetch(`${server.url}/v2/authenticated-user`, { headers: { authorization: `Bearer ${other}` } })).status).toBe(401);
  });
});
