import type { Mutant } from './mutants.js';
import { jsonResponse, pathOf } from './mutantProxy.js';
import { isObject, onBody, scanError } from './mutantKit.js';

/**
 * The thirteenth benign hunt's guards. The suite now walks every page of the vetted packages (a
 * network's other participants are listed too), finds this participant's own entry by its id,
 * and lets a deprecated operation's route-less 404 (no JSON body) pass its schema observer and
 * the pre-0.6.5 earliest-round path skip. What a client still suffers stays caught.
 */
const LEGACY_ROUND = '/v0/reward-accounting-process/rounds/earliest-available';
const VETTING_LIST = /^\/v2\/package-vetting\/list$/;
const VETTING_UPDATE = /^\/v2\/package-vetting\/update$/;

export const BENIGN13_MUTANTS: readonly Mutant[] = [
  {
    name: 'benign13-vetting-pages-go-round',
    description: 'every page of the vetted packages offers the same nextPageToken: a client walking the list never reaches its end',
    caughtBy: 'ledger.vetting.update-then-list',
    fault: onBody(VETTING_LIST, (v) => ({ ...v, nextPageToken: 'vp-again' })),
  },
  {
    name: 'benign13-vetting-answer-one-short',
    description: "the vetting update's newVettedPackages leave out a package that stays vetted: a client keeping the answer as the new state loses it",
    caughtBy: 'ledger.writes.answer-reflects-write',
    fault: onBody(VETTING_UPDATE, (v, req) => {
      const n = v.newVettedPackages;
      if (!isObject(n) || !Array.isArray(n.packages)) return v;
      const asked = req.body;
      const drop = n.packages.findIndex((p) => isObject(p) && typeof p.packageId === 'string' && !asked.includes(p.packageId));
      return drop < 0 ? v : { ...v, newVettedPackages: { ...n, packages: n.packages.filter((_, i) => i !== drop) } };
    }),
  },
  {
    name: 'benign13-legacy-round-error-404',
    description: "the pre-0.6.5 earliest-round path is routed but answers 404 (Scan's ErrorResponse) while the current one answers the round: an older client is told there is none",
    caughtBy: 'scan.earliest-round.legacy-path',
    fault: { request: (req) => (pathOf(req.url) === LEGACY_ROUND ? scanError(404, 'No reward accounting data available yet') : req) },
  },
  {
    name: 'benign13-legacy-round-404-other-json',
    description: 'the pre-0.6.5 earliest-round path answers 404 with JSON that is no ErrorResponse: a route, so its answer is judged',
    caughtBy: 'scan.schema.get-reward-accounting-earliest-available-round-legacy',
    fault: { request: (req) => (pathOf(req.url) === LEGACY_ROUND ? jsonResponse(404, { message: 'moved' }) : req) },
  },
];
