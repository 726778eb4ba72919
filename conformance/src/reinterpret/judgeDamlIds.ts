/**
 * What re-interpretation compares, one id per kind of difference. A difference fails the check
 * whose transaction it is, with its id, the node path and both values (`list` prints these).
 */
export const JUDGE_DAML = {
  'judge.daml.nodes': 'the target shows the nodes the engine builds for the submitted commands (count, kind, choice), as the suite\'s parties see them',
  'judge.daml.template': 'each created and exercised event names the template (package, module, entity) the engine used',
  'judge.daml.payload': 'each created event carries the argument the engine created (contract ids aside)',
  'judge.daml.signatories': 'each created event carries the signatories the template computes',
  'judge.daml.observers': 'each created event carries the observers the template computes (signatories excluded, as Canton reports them)',
  'judge.daml.consuming': 'each exercised event is consuming exactly when the choice is',
  'judge.daml.acting-parties': 'each exercised event names the controllers the choice computes',
  'judge.daml.exercise-result': 'each exercised event carries the result the engine computed (contract ids aside)',
  'judge.daml.refused': 'a command the engine runs without error is not refused, and one the engine refuses is not committed',
} as const;

export type JudgeDamlId = keyof typeof JUDGE_DAML;
