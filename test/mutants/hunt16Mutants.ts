import { createHash } from 'node:crypto';
import type { Mutant } from './mutants.js';
import { parse, pathOf, type Fault, type ProxyRequest, type ProxyResponse } from './mutantProxy.js';
import { isObject } from './mutantKit.js';

/**
 * A sixteenth hunt: what a wallet computes itself and the participant must agree with. The
 * wallet SDK derives an external party's key fingerprint from the key (its `fingerprint()`:
 * SHA-256 over hash purpose 12 and the key, as a multihash) and signs as the party's namespace
 * (`partyId.split('::')[1]`); a participant whose namespaces are not its keys' fingerprints is
 * consistent with itself and wrong for every wallet that checks.
 */

/**
 * External parties named in a namespace that is not their key's fingerprint, consistently: every
 * answer says G where the participant said F (the key's), every request is read back with F. The
 * topology transactions and their multiHash are left as the participant made them.
 */
const namespaceNotKeyFingerprint: Fault = (() => {
  const fake = new Map<string, string>();
  const real = new Map<string, string>();
  const swap = (text: string, from: ReadonlyMap<string, string>): string => {
    let out = text;
    for (const [a, b] of from) out = out.split(a).join(b);
    return out;
  };
  const learn = (res: ProxyResponse): void => {
    const v = parse(res.body);
    const f = isObject(v) ? v.publicKeyFingerprint : undefined;
    if (typeof f !== 'string' || fake.has(f)) return;
    const g = `1220${createHash('sha256').update(`not the key's fingerprint: ${f}`).digest('hex')}`;
    fake.set(f, g);
    real.set(g, f);
  };
  return {
    request: (req: ProxyRequest) => (real.size === 0 ? req : { ...req, url: swap(req.url, real), body: swap(req.body, real) }),
    response: (req: ProxyRequest, res: ProxyResponse) => {
      if (pathOf(req.url) === '/v2/parties/external/generate-topology' && res.status === 200) learn(res);
      return fake.size === 0 ? res : { ...res, body: swap(res.body, fake) };
    },
    wsRequest: (_req, frame) => swap(frame, real),
    wsResponse: (_req, frame) => [swap(frame, fake)],
  };
})();

export const HUNT16_MUTANTS: readonly Mutant[] = [
  {
    name: 'hunt16-external-namespace-not-key-fingerprint',
    description: "external parties live in a namespace that is not their key's fingerprint (generate-topology's publicKeyFingerprint and partyId agree with each other, not with the key): the wallet SDK's fingerprint() of the same key names another party",
    caughtBy: 'ledger.parties.external-allocate',
    fault: namespaceNotKeyFingerprint,
  },
];
