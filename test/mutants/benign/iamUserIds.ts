import { userToken } from '../../auth/support/tokens.js';
import type { Fault, ProxyRequest, Upstream } from '../mutantProxy.js';
import { populatedOnce } from './populatedOnce.js';

/**
 * Users named as identity providers name their subjects: Canton's user ids are 1-128 ASCII
 * alphanumerics or any of "@^$.!`-#+'~_|:()" (User.id of Canton 3.5's JSON Ledger API openapi.yaml;
 * daml's Ref.scala UserId: "chosen such that it maximizes the ease of integration with IAM
 * systems", the JWT `sub`), so a participant in service holds `auth0|…`, e-mail and `svc:…`
 * users. The reference's own are plain words. Made through the ledger API before the suite's first request reaches the participant;
 * nothing in the answers is rewritten.
 */
export const IAM_USER_IDS = ["auth0|zz-iam-5f3a9c@corp.example", 'svc:zz-iam.ops(ci)', "zz-iam.o'neil+ledger@corp.example", 'zz-iam~`^$!#'] as const;

async function populate(upstream: Upstream, like: ProxyRequest): Promise<void> {
  const headers = { host: like.headers.host, authorization: `Bearer ${await userToken('participant_admin', 'ES256')}`, 'content-type': 'application/json' };
  for (const [i, id] of IAM_USER_IDS.entries()) {
    const rights = i === 0 ? [{ kind: { CanReadAsAnyParty: { value: {} } } }] : [];
    const res = await upstream.send({ method: 'POST', url: '/v2/users', headers, body: JSON.stringify({ user: { id, primaryParty: '', isDeactivated: false, identityProviderId: '' }, rights }) });
    if (res.status !== 200) throw new Error(`iam-user-ids: POST /v2/users ${id} answered ${res.status}: ${res.body.slice(0, 300)}`);
  }
}

export function iamUserIds(): Fault {
  return populatedOnce(populate);
}
