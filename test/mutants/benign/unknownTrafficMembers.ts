import { isObject, scanError } from '../mutantKit.js';
import { parse, pathOf, type Fault } from '../mutantProxy.js';

/**
 * A Scan that knows the traffic of its synchronizer's members only, as Splice's does: a well-formed
 * member id the sequencer has not registered gets 404 (HttpScanHandler.getMemberTrafficStatus asks
 * the sequencer's GetTrafficControlState, which answers only registered members:
 * BlockSequencer.trafficStatus intersects the request with knownMembers; Splice's
 * SequencerAdminConnection.getSequencerTrafficControlState then throws NOT_FOUND "No traffic state
 * found for member"). The reference answers zero counters for any well-formed member. The members
 * here: the participant the ledger API names (GET /v2/parties/participant-id).
 */
const TRAFFIC = /^\/v0\/domains\/[^/]+\/members\/([^/]+)\/traffic-status$/;
const WELL_FORMED = /^(PAR|MED)::[^:]+::1220[0-9a-f]{64}$/;
const PARTICIPANT_ID = '/v2/parties/participant-id';

const memberOf = (body: string): string | undefined => {
  const v = parse(body);
  const id = isObject(v) ? v.participantId : undefined;
  return typeof id === 'string' ? (id.startsWith('PAR::') ? id : `PAR::${id}`) : undefined;
};

/** Each proxy its own: the participant is learnt from the ledger's answer, or asked for with the request's credentials. */
export const unknownTrafficMembers = (): Fault => {
  let participant: string | undefined;
  const learn = (status: number, body: string) => {
    if (status === 200) participant = memberOf(body) ?? participant;
  };
  return {
    async request(req, upstream) {
      const m = req.method === 'GET' ? TRAFFIC.exec(pathOf(req.url)) : null;
      if (m === null) return req;
      const member = decodeURIComponent(m[1]!);
      if (!WELL_FORMED.test(member)) return req;
      if (participant === undefined) {
        const res = await upstream.send({ method: 'GET', url: PARTICIPANT_ID, headers: req.headers, body: '' });
        learn(res.status, res.body);
      }
      return member === participant ? req : scanError(404, `No traffic state found for member ${member}`);
    },
    response(req, res) {
      if (req.method === 'GET' && pathOf(req.url) === PARTICIPANT_ID) learn(res.status, res.body);
      return res;
    },
  };
};
