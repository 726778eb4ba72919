/**
 * What re-interpretation compares, one id per kind of difference (`list --invariants` prints them;
 * the same shape as the own-ledger judge's invariants, so both lists can be shown together). A
 * difference fails the check whose transaction it is, with its id, the node path and both values.
 */
const RULE = 'Canton: every confirming participant re-interprets the submitted commands with the Daml engine and rejects a transaction view that differs (ledger model, "Validity"; DAML-LF interpretation).';

export const JUDGE_DAML = [
  { id: 'judge.daml.nodes', title: 'the nodes the engine builds for the submitted commands, as the suite\'s parties see them (count, kind, choice, descendants)', rule: RULE },
  { id: 'judge.daml.template', title: 'each created and exercised event names the template (package, module, entity) the engine used', rule: RULE },
  { id: 'judge.daml.package-name', title: 'each created and exercised event names the package name of its template\'s package (the name in that package\'s metadata)', rule: `${RULE} Package names: event.proto package_name, the name clients select templates by (#name:Module:Entity).` },
  { id: 'judge.daml.payload', title: 'each created event carries the argument the engine created (contract ids aside)', rule: RULE },
  { id: 'judge.daml.signatories', title: 'each created event carries the signatories the template computes', rule: `${RULE} Signatories are the template's signatory expression over its argument.` },
  { id: 'judge.daml.observers', title: 'each created event carries the observers the template computes (signatories excluded, as event.proto says)', rule: `${RULE} Observers are the template's observer expression over its argument.` },
  { id: 'judge.daml.consuming', title: 'each exercised event is consuming exactly when its choice is', rule: RULE },
  { id: 'judge.daml.acting-parties', title: 'each exercised event names the controllers the choice computes', rule: RULE },
  { id: 'judge.daml.choice-argument', title: 'each exercised event carries the choice argument the engine exercised with (contract ids aside)', rule: RULE },
  { id: 'judge.daml.interface', title: 'an exercised event names the interface its choice was exercised through exactly when it was (interfaceId absent for a template\'s own choice)', rule: RULE },
  { id: 'judge.daml.exercise-result', title: 'each exercised event carries the result the engine computed (contract ids aside)', rule: RULE },
  { id: 'judge.daml.witnesses', title: 'each event names as witnesses exactly the requesting parties among the informees of its node and of its ancestors', rule: `${RULE} Witnesses: event.proto witness_parties (stakeholders, or signatories of a non-consuming exercise, the actors, choice observers, and every ancestor's informees).` },
  { id: 'judge.daml.acs-delta', title: 'each event says acsDelta exactly when it is part of the ACS-delta shape of the same read: a create or consuming exercise a requesting stakeholder sees, of a contract not both created and consumed in the transaction', rule: `${RULE} acs_delta: event.proto (Canton 3.4 on), what a client tracking active contracts from a ledger-effects stream relies on.` },
  { id: 'judge.daml.view', title: 'each interface view a created event carries (where the request asked for views) is the view the template\'s interface instance computes', rule: `${RULE} Views: the interface instance's view expression over the contract argument.` },
  { id: 'judge.daml.error-code', title: 'a command the target refused with an error of Daml interpretation is refused by the engine too, with the same error code', rule: `${RULE} The code is the one Canton gives the engine's error (RejectionGenerators.commandExecutorError).` },
  { id: 'judge.daml.refused', title: 'a transaction the engine refuses to build (a Daml error, failed authorization) is not committed', rule: RULE },
] as const satisfies readonly { id: string; title: string; rule: string }[];

export type JudgeDamlId = (typeof JUDGE_DAML)[number]['id'];
