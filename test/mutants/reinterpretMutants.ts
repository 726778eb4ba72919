import { pathOf, type Fault, type ProxyRequest, type ProxyResponse } from './mutantProxy.js';
import { everywhere, isObject, withJson, type Json } from './mutantKit.js';
import type { Mutant } from './mutants.js';

/**
 * Faults inside the transactions of the suite's own package (`ledger.daml.own-package`): each
 * rewrites one field of an event the way a participant with a broken engine or event writer
 * would. No hand-written expectation looks at these fields, so only re-interpretation (`reinterpret`:
 * the `judge.daml.*` id it fails with) catches them; `--reinterpret none` lets them through. The
 * last two break the life cycle around the transactions and are caught by the check itself.
 */

const CHECK = 'ledger.daml.own-package';
const OWN = 'Suite.Ticket';

/** Rewrites the events of submit-and-wait-for-transaction answers to commands on the suite's package whose request matches `when`. */
function onOwnTransaction(when: (request: string) => boolean, f: (events: Json[]) => void): Fault {
  return {
    response(req: ProxyRequest, res: ProxyResponse) {
      if (req.method !== 'POST' || pathOf(req.url) !== '/v2/commands/submit-and-wait-for-transaction' || res.status !== 200) return res;
      if (!req.body.includes(OWN) || !when(req.body)) return res;
      return withJson(res, (v) => {
        if (isObject(v) && isObject(v.transaction) && Array.isArray(v.transaction.events)) f(v.transaction.events as Json[]);
        return v;
      });
    },
  };
}
/**
 * Rewrites every created event of the suite's template in every answer (transactions, active
 * contracts, events by contract id): a consistent fault, as a participant that stored the wrong
 * value would have, so reading it again elsewhere shows the same.
 */
function onEveryTicket(f: (created: Json) => void): Fault {
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (isObject(v)) {
      if (typeof v.templateId === 'string' && v.templateId.endsWith(`:${OWN}:Ticket`) && Array.isArray(v.signatories) && 'createArgument' in v) f(v);
      Object.values(v).forEach(walk);
    }
  };
  return { response: (req, res) => (res.status === 200 && pathOf(req.url).startsWith('/v2/') ? withJson(res, (v) => (walk(v), v)) : res) };
}
/**
 * Rewrites the events of point reads (`update-by-id`, LEDGER_EFFECTS) of transactions holding an
 * exercise of `choice` on the sample templates: a participant whose stored transaction tree is not
 * the one it answered at submission (the suite re-reads each committed transaction this way).
 */
function onStoredSampleTree(choice: string, f: (events: Json[]) => void): Fault {
  return {
    response(req: ProxyRequest, res: ProxyResponse) {
      if (req.method !== 'POST' || pathOf(req.url) !== '/v2/updates/update-by-id' || res.status !== 200 || !req.body.includes('TRANSACTION_SHAPE_LEDGER_EFFECTS')) return res;
      return withJson(res, (v) => {
        const tx = isObject(v) && isObject(v.update) && isObject(v.update.Transaction) && isObject(v.update.Transaction.value) ? v.update.Transaction.value : undefined;
        const events = tx !== undefined && Array.isArray(tx.events) ? (tx.events as Json[]) : undefined;
        if (events?.some((e) => isObject(e.ExercisedEvent) && e.ExercisedEvent.choice === choice && String(e.ExercisedEvent.templateId).endsWith(':Sample.Asset:Asset'))) f(events);
        return v;
      });
    },
  };
}
/**
 * Rewrites, in every answer, the created events of the sample assets `issuedBy` selects: a
 * participant whose stored events were written by a broken engine, read back the same everywhere.
 */
export function onEverySampleAsset(issuedBy: (issuer: string) => boolean, f: (created: Json) => void): Fault {
  return everywhere((v) => {
    if (typeof v.templateId === 'string' && v.templateId.endsWith(':Sample.Asset:Asset') && isObject(v.createArgument) && issuedBy(String(v.createArgument.issuer))) f(v);
    return v;
  });
}
const created = (events: Json[]) => events.map((e) => e.CreatedEvent).filter(isObject);
const exercised = (events: Json[]) => events.map((e) => e.ExercisedEvent).filter(isObject);
const isCreate = (body: string) => body.includes('CreateCommand');
const choiceIs = (choice: string) => (body: string) => body.includes(`"choice":"${choice}"`);

export const REINTERPRET_MUTANTS: readonly Mutant[] = [
  {
    name: 'own-package-wrong-signatory',
    description: 'the created event names the holder (an observer) as signatory instead of the issuer the template computes',
    caughtBy: CHECK, reinterpret: 'judge.daml.signatories',
    fault: onEveryTicket((c) => {
      if (Array.isArray(c.observers) && c.observers.length > 0) c.signatories = [c.observers[0]];
    }),
  },
  {
    name: 'own-package-extra-observer',
    description: 'the created event lists an observer the template does not compute',
    caughtBy: CHECK, reinterpret: 'judge.daml.observers',
    fault: onEveryTicket((c) => {
      if (Array.isArray(c.observers) && !c.observers.includes('intruder::1220aaaa')) c.observers = [...c.observers, 'intruder::1220aaaa'];
    }),
  },
  {
    name: 'own-package-payload-field',
    description: 'the successor a consuming choice creates carries its old count (the choice\'s update to the field is lost)',
    caughtBy: CHECK, reinterpret: 'judge.daml.payload',
    fault: onOwnTransaction(choiceIs('Bump'), (events) => {
      for (const c of created(events)) if (isObject(c.createArgument)) c.createArgument = { ...c.createArgument, count: '3' };
    }),
  },
  {
    name: 'own-package-consuming-flag',
    description: 'a non-consuming choice is reported as consuming',
    caughtBy: CHECK, reinterpret: 'judge.daml.consuming',
    fault: onOwnTransaction(choiceIs('Describe'), (events) => {
      for (const x of exercised(events)) x.consuming = true;
    }),
  },
  {
    name: 'own-package-exercise-result',
    description: 'the exercise result of a non-consuming choice is not what the choice computes',
    caughtBy: CHECK, reinterpret: 'judge.daml.exercise-result',
    fault: onOwnTransaction(choiceIs('Describe'), (events) => {
      for (const x of exercised(events)) x.exerciseResult = 'ticket-3';
    }),
  },
  {
    name: 'own-package-choice-argument',
    description: 'the exercised event of a consuming choice reports another choice argument than the one exercised (the event writer renders a stale argument)',
    caughtBy: CHECK, reinterpret: 'judge.daml.choice-argument',
    fault: onOwnTransaction(choiceIs('Bump'), (events) => {
      for (const x of exercised(events)) if (isObject(x.choiceArgument)) x.choiceArgument = { ...x.choiceArgument, by: '7' };
    }),
  },
  {
    name: 'own-package-phantom-interface',
    description: 'the exercised event of a template\'s own choice names an interface it was not exercised through',
    caughtBy: CHECK, reinterpret: 'judge.daml.interface',
    fault: onOwnTransaction(choiceIs('Describe'), (events) => {
      for (const x of exercised(events)) x.interfaceId = String(x.templateId).replace(/:Ticket$/, ':Counted');
    }),
  },
  {
    name: 'own-package-view-value',
    description: 'the interface view the successor of a consuming choice carries (the request asked for it) is not what the view computes',
    caughtBy: CHECK, reinterpret: 'judge.daml.view',
    fault: onOwnTransaction(choiceIs('Bump'), (events) => {
      for (const c of created(events)) {
        for (const v of Array.isArray(c.interfaceViews) ? c.interfaceViews : []) if (isObject(v) && isObject(v.viewValue)) v.viewValue = { ...v.viewValue, total: '3' };
      }
    }),
  },
  {
    name: 'own-package-extra-node',
    description: 'the transaction of a create reports its created event twice (an event writer that appends a node again)',
    caughtBy: CHECK, reinterpret: 'judge.daml.nodes',
    fault: onOwnTransaction(isCreate, (events) => {
      const first = events.find((e) => isObject(e.CreatedEvent));
      if (first && isObject(first.CreatedEvent)) events.push({ CreatedEvent: { ...first.CreatedEvent, nodeId: 1 } });
    }),
  },
  {
    name: 'sample-missing-node',
    description: 'the stored tree of a Split lacks its last node (the remainder\'s create): the exercise still spans it',
    caughtBy: 'ledger.exercise.result-and-events', reinterpret: 'judge.daml.nodes',
    fault: onStoredSampleTree('Split', (events) => {
      const last = events.map((e, i) => (isObject(e.CreatedEvent) ? i : -1)).filter((i) => i >= 0).at(-1);
      if (last !== undefined) events.splice(last, 1);
    }),
  },
  {
    name: 'sample-extra-witness',
    description: 'the stored tree of a Split names a witness of its creates that is no informee of them (nor of the exercise)',
    caughtBy: 'ledger.exercise.result-and-events', reinterpret: 'judge.daml.witnesses',
    fault: onStoredSampleTree('Split', (events) => {
      for (const c of created(events)) if (Array.isArray(c.witnessParties)) c.witnessParties = [...c.witnessParties, 'intruder::1220aaaa'];
    }),
  },
  {
    name: 'own-package-interface-view-lost',
    description: 'active contracts read through an interface come without the interface view asked for',
    caughtBy: CHECK,
    fault: {
      response(req, res) {
        if (req.method !== 'POST' || pathOf(req.url) !== '/v2/state/active-contracts' || res.status !== 200 || !req.body.includes('InterfaceFilter')) return res;
        return withJson(res, (v) => (Array.isArray(v) ? v.map((e) => {
          const c = isObject(e) && isObject(e.contractEntry) && isObject(e.contractEntry.JsActiveContract) ? e.contractEntry.JsActiveContract.createdEvent : undefined;
          if (isObject(c)) c.interfaceViews = [];
          return e;
        }) : v));
      },
    },
  },
  {
    name: 'history-signatories-as-observers',
    description: "the target's ledger shows each sample asset's signatories among its observers too (stakeholders written as observers), in every read: the transactions re-run from what a reader sees say otherwise",
    caughtBy: 'ledger.reinterpret.target-history',
    fault: onEverySampleAsset(() => true, (c) => {
      if (Array.isArray(c.signatories) && Array.isArray(c.observers)) c.observers = [...new Set([...c.observers, ...c.signatories])];
    }),
  },
  {
    name: 'history-consuming-flag-flipped',
    description: "the target's ledger shows the exercises on sample assets with the consuming flag inverted, in every read",
    caughtBy: 'ledger.reinterpret.target-history',
    fault: everywhere((x) => (typeof x.choice === 'string' && typeof x.templateId === 'string' && x.templateId.endsWith(':Sample.Asset:Asset') && typeof x.consuming === 'boolean' ? { ...x, consuming: !x.consuming } : x)),
  },
  {
    name: 'history-holding-view-amount',
    description: "the target computes the Holding view of the sample assets with another amount than the template's interface instance gives (a wallet reading its holdings by the interface sees a wrong balance)",
    caughtBy: 'ledger.reinterpret.target-history',
    fault: onEverySampleAsset(() => true, (c) => {
      if (!Array.isArray(c.interfaceViews)) return;
      c.interfaceViews = c.interfaceViews.map((v) => (isObject(v) && isObject(v.viewValue) && typeof v.viewValue.amount === 'string' ? { ...v, viewValue: { ...v.viewValue, amount: `${v.viewValue.amount}1` } } : v));
    }),
  },
  {
    name: 'own-package-listed-not-vetted',
    description: 'a DAR uploaded with vetAllPackages=true is listed and registered but never vetted',
    caughtBy: CHECK,
    fault: {
      response(req, res) {
        if (req.method !== 'POST' || pathOf(req.url) !== '/v2/package-vetting/list' || res.status !== 200) return res;
        const ids = (() => {
          try {
            const b = JSON.parse(req.body) as { packageMetadataFilter?: { packageIds?: string[] } };
            return new Set(b.packageMetadataFilter?.packageIds ?? []);
          } catch {
            return new Set<string>();
          }
        })();
        return withJson(res, (v) => {
          if (isObject(v) && Array.isArray(v.vettedPackages)) {
            for (const e of v.vettedPackages) if (isObject(e) && Array.isArray(e.packages)) e.packages = e.packages.filter((p) => !(isObject(p) && ids.has(String(p.packageId))));
          }
          return v;
        });
      },
    },
  },
];
