import { E, PackageBuilder, T, type Type } from '../../../daml-engine/index.js';
import { buildDalf, buildDar } from '../../../conformance/src/generators/dar.js';
import { userToken } from '../../auth/support/tokens.js';
import type { Fault, ProxyRequest, Upstream } from '../mutantProxy.js';
import { populatedOnce } from './populatedOnce.js';

/**
 * A participant that was in use before the suite came: it hosts other parties (allocated by its
 * operators with annotations of theirs, some of them users' primary parties, one of another
 * identity provider), users with rights of every kind (admins, a
 * reader of any party, a deactivated one, one of another identity provider), identity providers
 * (one deactivated) and other packages, vetted: three versions of one package name (a lineage of
 * a template whose later versions add Optional fields) and a utility package under a name the
 * suite never uploads. Nothing in the answers is rewritten: the participant's own state differs.
 * It is made through the ledger API before the suite's first request reaches it.
 */
// Some named as on a Canton Coin network ("cc-"), as the suite names its own: a filter by hint meets them too.
const HINTS = ['zz-busy-operator', 'zz-busy-treasury', 'zz-busy-custody', 'cc-treasury', 'cc-round-robin', 'cc-holder-desk', 'cc-list-keeper'];
const IDPS = ['zz-busy-idp', 'zz-busy-idp-off'];

function lineage(version: string, fields: Readonly<Record<string, Type>>) {
  const b = new PackageBuilder({ name: 'zz-busy-wallet', version });
  b.module('Busy.Wallet').template('Holding', { fields, signatories: (t) => E.list(T.party, [t.field('owner')]) });
  return b.build().dar();
}

async function populate(upstream: Upstream, like: ProxyRequest): Promise<void> {
  // The operators' admin token (the reference ignores it when unsecured).
  const headers = { host: like.headers.host, authorization: `Bearer ${await userToken('participant_admin', 'ES256')}` };
  const send = async (method: string, url: string, body: string | Buffer, type = 'application/json') => {
    const raw = typeof body === 'string' ? undefined : { bytes: body, text: body.toString('utf8') };
    const res = await upstream.send({ method, url, headers: { ...headers, 'content-type': type }, body: raw?.text ?? (body as string), ...(raw ? { raw } : {}) });
    if (res.status !== 200) throw new Error(`busy-participant: ${method} ${url} answered ${res.status}: ${res.body.slice(0, 300)}`);
    return JSON.parse(res.body) as Record<string, unknown>;
  };
  for (const [i, id] of IDPS.entries()) {
    await send('POST', '/v2/idps', JSON.stringify({ identityProviderConfig: { identityProviderId: id, isDeactivated: i === 1, issuer: `https://${id}.busy.invalid`, jwksUrl: `https://${id}.busy.invalid/jwks.json`, audience: i === 0 ? 'busy' : '' } }));
  }
  const parties: string[] = [];
  // Most of the default identity provider, one of another (with annotations, as operators keep them).
  for (const [hint, idp] of [...HINTS.map((h) => [h, ''] as const), ['zz-busy-tenant', IDPS[0]!] as const]) {
    const made = await send('POST', '/v2/parties', JSON.stringify({ partyIdHint: hint, identityProviderId: idp, localMetadata: { resourceVersion: '', annotations: { 'busy.example/desk': hint } } }));
    parties.push(((made.partyDetails as Record<string, unknown>).party as string));
  }
  const right = (kind: string, party?: string) => ({ kind: { [kind]: { value: party === undefined ? {} : { party } } } });
  const users: [Record<string, unknown>, unknown[]][] = [
    [{ id: 'zz-busy-admin', primaryParty: parties[0], isDeactivated: false, identityProviderId: '' }, [right('ParticipantAdmin'), right('CanActAs', parties[0])]],
    [{ id: 'zz-busy-auditor', primaryParty: '', isDeactivated: false, identityProviderId: '' }, [right('CanReadAsAnyParty')]],
    [{ id: 'cc-bot', primaryParty: parties[4], isDeactivated: false, identityProviderId: '' }, [right('CanActAs', parties[4]), right('CanExecuteAsAnyParty')]],
    [{ id: 'zz-busy-trader', primaryParty: parties[1], isDeactivated: false, identityProviderId: '' }, [right('CanActAs', parties[1]), right('CanReadAs', parties[2]), right('CanExecuteAs', parties[1])]],
    [{ id: 'zz-busy-retired', primaryParty: parties[3], isDeactivated: true, identityProviderId: '' }, [right('CanActAs', parties[3])]],
    [{ id: 'zz-busy-idp-admin', primaryParty: parties[HINTS.length], isDeactivated: false, identityProviderId: IDPS[0] }, [right('IdentityProviderAdmin'), right('CanActAs', parties[HINTS.length])]],
  ];
  for (const [user, rights] of users) await send('POST', '/v2/users', JSON.stringify({ user, rights }));
  // Vetted on every synchronizer the participant is connected to (one upload each: vetting is per synchronizer).
  const res = await upstream.send({ method: 'GET', url: '/v2/state/connected-synchronizers', headers, body: '' });
  const syncs = (JSON.parse(res.body) as { connectedSynchronizers: { synchronizerId: string }[] }).connectedSynchronizers.map((c) => c.synchronizerId);
  const darUpload = async (dar: Uint8Array) => {
    for (const sync of syncs) await send('POST', `/v2/dars?vetAllPackages=true&synchronizerId=${encodeURIComponent(sync)}`, Buffer.from(dar), 'application/octet-stream');
  };
  await darUpload(lineage('1.0.0', { owner: T.party, amount: T.int64 }));
  await darUpload(lineage('1.1.0', { owner: T.party, amount: T.int64, memo: T.optional(T.text) }));
  await darUpload(lineage('2.0.0', { owner: T.party, amount: T.int64, memo: T.optional(T.text), tag: T.optional(T.text) }));
  await darUpload(buildDar({ main: buildDalf({ name: 'zz-busy-utils', version: '0.3.1' }) }));
}

export function busyParticipant(): Fault {
  return populatedOnce(populate);
}
