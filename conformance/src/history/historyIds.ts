/**
 * What the history judge holds a target to, one id per kind of unexplained holding change
 * (`list --invariants` prints them beside the judge's and re-interpretation's). A violation fails
 * the check whose transaction showed it, naming the party, the update and offset, and the holding.
 */
const PARSER = "@canton-network/core-tx-parser (wallet-sdk's token-standard history: TokenStandardService.listHoldingTransactions)";

export const JUDGE_HISTORY = [
  {
    id: 'judge.history.unexplained',
    title: 'every holding created or archived for a party is under a token-standard choice (the parser\'s strict mode)',
    rule: `${PARSER}, strict mode (validateStrict): a holding change the parser can only label as a raw Create or Archive, under no TransferFactory/TransferInstruction/BurnMint choice and no tx-kind meta, is an error. Token standard (CIP-0056): holdings move only through the standard's choices, whose exercises the ledger shows with the holdings they create and archive beneath them.`,
  },
  {
    id: 'judge.history.unseen',
    title: 'every holding the update creates or archives for a party appears in its parsed history',
    rule: `${PARSER}: the parser finds a party's holding changes through the Holding interface view of created events and the implemented interfaces of consuming events; Ledger API v2 (event.proto): an interface filter with includeInterfaceView answers the view of every matching created event, and exercised and archived events list the filter's interfaces the template implements.`,
  },
  {
    id: 'judge.history.unparsable',
    title: 'the party\'s token-standard history parses',
    rule: `${PARSER}: it throws on what a ledger must not show (an archive whose contract has no created and archived event by contract id, an unknown TransferInstructionResult, a holding event without its view, holdings of several instruments summed as one).`,
  },
  {
    id: 'judge.history.transfer-outcome',
    title: 'a transfer moves the instructed amount of the instrument to the receiver, and nothing to anyone else',
    rule: 'Token standard transfer-instruction-v1/v2: a Completed TransferInstructionResult means `transfer.amount` of `transfer.instrumentId` now belongs to `transfer.receiver` (the parser\'s TransferOut/TransferIn); a Pending, Failed, Rejected or Withdrawn one creates no holding of the receiver.',
  },
] as const satisfies readonly { id: string; title: string; rule: string }[];

export type JudgeHistoryId = (typeof JUDGE_HISTORY)[number]['id'];

export const historyRuleOf = (id: JudgeHistoryId) => JUDGE_HISTORY.find((r) => r.id === id)!;
