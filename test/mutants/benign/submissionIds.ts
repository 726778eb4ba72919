import { createHash } from 'node:crypto';
import type { Json } from '../mutantKit.js';
import type { Fault } from '../mutantProxy.js';
import { isLedgerPath, mapApiObjects, rewriteFrame, rewriteJsonBody } from './jsonWalk.js';

/**
 * Submission ids the participant generates: a command submitted without `submissionId` gets one
 * (Canton's SubmissionIdGenerator, a UUID), which its completion names. The same completion read
 * again names the same id.
 */
const uuidOf = (key: string) => {
  const h = createHash('sha256').update(key).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
};
const isCompletion = (o: Json) => typeof o.commandId === 'string' && typeof o.userId === 'string' && Array.isArray(o.actAs) && 'synchronizerTime' in o;
const withSubmissionId = (o: Json): Json =>
  isCompletion(o) && (o.submissionId === undefined || o.submissionId === '')
    ? { ...o, submissionId: uuidOf(`${String(o.userId)} ${String(o.commandId)} ${JSON.stringify(o.actAs)} ${String(o.offset)}`) }
    : o;
const filled = (v: unknown) => mapApiObjects(v, withSubmissionId);

export const submissionIds: Fault = {
  response: (req, res) => (isLedgerPath(req.url) ? rewriteJsonBody(res, filled) : res),
  wsResponse: (_req, frame) => [rewriteFrame(frame, filled)],
};
