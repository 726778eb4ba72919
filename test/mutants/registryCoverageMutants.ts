import type { Mutant } from './mutants.js';
import { jsonResponse, parse, pathOf, type Fault } from './mutantProxy.js';
import { at, emptyContext, isObject, onBody, onRequest, scanError, withJson, type Json } from './mutantKit.js';

/**
 * Mutants of the registry checks that had none (the allocation-instruction accept context, the
 * per-choice contexts of transfer instructions and allocations, the instrument list, the
 * cross-group blob check) and of the allocation factory's bad-input check.
 */
const ACCEPT = /^\/registry\/allocation-instruction\/v2\/[^/]+\/choice-contexts\/accept$/;
const disclosedOf = (v: Json): Json[] => (Array.isArray(v.disclosedContracts) ? (v.disclosedContracts as Json[]) : []);
/** The fault "an unknown contract's context is an empty 200" on one endpoint. */
const unknownIs200 = (pattern: RegExp): Fault => ({ response: (req, res) => (res.status === 404 && at(req, pattern) ? jsonResponse(200, emptyContext) : res) });

export const REGISTRY_COVERAGE_MUTANTS: readonly Mutant[] = [
  {
    name: 'accept-context-without-synchronizer',
    description: 'the accept context discloses contracts without their synchronizerId',
    caughtBy: 'registry.accept.context-shape',
    fault: onBody(ACCEPT, (v) => ({ ...v, disclosedContracts: disclosedOf(v).map(({ synchronizerId: _s, ...d }) => d) })),
  },
  {
    name: 'exclude-debug-reorders',
    description: 'excludeDebugFields: true also reverses the disclosed contracts, so the lean answer is not the full one minus the debug fields',
    caughtBy: 'registry.accept.exclude-debug-equivalence',
    fault: {
      response(req, res) {
        const body = parse(req.body);
        if (res.status !== 200 || !at(req, ACCEPT) || !isObject(body) || body.excludeDebugFields !== true) return res;
        return withJson(res, (v) => (isObject(v) ? { ...v, disclosedContracts: [...disclosedOf(v)].reverse() } : v));
      },
    },
  },
  {
    name: 'exclude-debug-defaults-to-true',
    description: 'a request without excludeDebugFields is answered as if it said true',
    caughtBy: 'registry.accept.exclude-debug-default',
    fault: onRequest(ACCEPT, (v) => ('excludeDebugFields' in v ? v : { ...v, excludeDebugFields: true })),
  },
  {
    name: 'accept-context-nonce',
    description: 'each accept context carries a fresh nonce, so contexts cannot be prefetched',
    caughtBy: 'registry.accept.deterministic',
    fault: onBody(ACCEPT, (v) => {
      const data = isObject(v.choiceContextData) ? v.choiceContextData : {};
      const values = isObject(data.values) ? data.values : {};
      return { ...v, choiceContextData: { ...data, values: { ...values, nonce: { tag: 'AV_Text', value: Math.random().toString(36) } } } };
    }),
  },
  {
    name: 'accept-context-lenient-body',
    description: 'a request body that is not a GetChoiceContextRequest is read as {} instead of refused',
    caughtBy: 'registry.accept.malformed-body-400',
    fault: {
      request(req) {
        if (req.method !== 'POST' || !at(req, ACCEPT)) return req;
        const body = parse(req.body);
        const valid = isObject(body) && (body.excludeDebugFields === undefined || typeof body.excludeDebugFields === 'boolean') && (body.meta === undefined || (isObject(body.meta) && Object.values(body.meta).every((x) => typeof x === 'string')));
        return valid ? req : { ...req, body: '{}' };
      },
    },
  },
  {
    name: 'archived-instruction-served',
    description: 'the accept context of an archived instruction is an empty 200 (archivals not applied)',
    caughtBy: 'registry.accept.archived-404',
    fault: (profile) => ({
      response: (req, res) => (res.status === 404 && pathOf(req.url).includes(encodeURIComponent(profile.registry?.archivedAllocationInstructionId ?? '\u0000')) ? jsonResponse(200, emptyContext) : res),
    }),
  },
  {
    name: 'disclosed-blob-stale',
    description: 'the accept context discloses a blob that is not the ledger\'s (re-encoded: one byte differs)',
    caughtBy: 'registry.cross-group.disclosed-match-ledger',
    fault: onBody(ACCEPT, (v) => ({
      ...v,
      disclosedContracts: disclosedOf(v).map((d) => {
        const bytes = Buffer.from(String(d.createdEventBlob), 'base64');
        if (bytes.length > 0) bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 1;
        return { ...d, createdEventBlob: bytes.toString('base64') };
      }),
    })),
  },
  // Ignoring an out-of-range pageSize was a mutant here once; Splice Scan's registry reads no
  // pageSize at all (benign ignored-instrument-page-size). Reading -1 as "no instrument" is a fault.
  {
    name: 'instrument-list-negative-page-size-empty',
    description: 'pageSize -1 is read as a page of no instruments: a 200 with an empty list instead of a refusal or the list',
    caughtBy: 'registry.metadata.instrument-list',
    fault: { response: (req, res) => (req.method === 'GET' && at(req, /^\/registry\/metadata\/v1\/instruments$/) && /[?&]pageSize=-1(&|$)/.test(req.url) ? jsonResponse(200, { instruments: [] }) : res) },
  },
  {
    name: 'reject-context-v1-unknown-200',
    description: 'the v1 reject context of an unknown transfer instruction is an empty 200',
    caughtBy: 'registry.transfer-instruction.reject-context-v1',
    fault: unknownIs200(/^\/registry\/transfer-instruction\/v1\/[^/]+\/choice-contexts\/reject$/),
  },
  {
    name: 'withdraw-context-v1-missing',
    description: 'the v1 withdraw context is not served (404 for every instruction)',
    caughtBy: 'registry.transfer-instruction.withdraw-context-v1',
    fault: { request: (req) => (at(req, /^\/registry\/transfer-instruction\/v1\/[^/]+\/choice-contexts\/withdraw$/) ? scanError(404, 'not found') : req) },
  },
  {
    name: 'reject-context-v2-unknown-200',
    description: 'the v2 reject context of an unknown transfer instruction is an empty 200',
    caughtBy: 'registry.transfer-instruction.reject-context-v2',
    fault: unknownIs200(/^\/registry\/transfer-instruction\/v2\/[^/]+\/choice-contexts\/reject$/),
  },
  {
    name: 'withdraw-context-v2-error-shape',
    description: 'the v2 withdraw context answers an unknown instruction with {"message"} instead of an ErrorResponse',
    caughtBy: 'registry.transfer-instruction.withdraw-context-v2',
    fault: { response: (req, res) => (res.status === 404 && at(req, /^\/registry\/transfer-instruction\/v2\/[^/]+\/choice-contexts\/withdraw$/) ? jsonResponse(404, { message: 'not found' }) : res) },
  },
  {
    name: 'execute-transfer-context-v1-no-disclosures',
    description: 'the v1 execute-transfer context leaves out disclosedContracts',
    caughtBy: 'registry.allocation.execute-transfer-context-v1',
    fault: onBody(/^\/registry\/allocations\/v1\/[^/]+\/choice-contexts\/execute-transfer$/, ({ disclosedContracts: _d, ...v }) => v),
  },
  {
    name: 'cancel-context-v1-unknown-200',
    description: 'the v1 cancel context of an unknown allocation is an empty 200',
    caughtBy: 'registry.allocation.cancel-context-v1',
    fault: unknownIs200(/^\/registry\/allocations\/v1\/[^/]+\/choice-contexts\/cancel$/),
  },
  {
    name: 'cancel-context-v2-missing',
    description: 'the v2 cancel context is not served (404 for every allocation)',
    caughtBy: 'registry.allocation.cancel-context-v2',
    fault: { request: (req) => (at(req, /^\/registry\/allocations\/v2\/[^/]+\/choice-contexts\/cancel$/) ? scanError(404, 'not found') : req) },
  },
  {
    name: 'allocation-factory-bad-input-bare-400',
    description: 'the allocation factory refuses a negative amount with a bare 400 (a text body, no ErrorResponse), which a wallet cannot show',
    caughtBy: 'registry.allocation-factory.bad-input-400',
    fault: {
      request(req) {
        if (req.method !== 'POST' || !/^\/registry\/allocation-instruction\/v[12]\/allocation-factory$/.test(pathOf(req.url))) return req;
        return /"amount":"-/.test(req.body) ? { status: 400, headers: { 'content-type': 'text/plain' }, body: 'Bad Request' } : req;
      },
    },
  },
];
