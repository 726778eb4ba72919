/** operationIds of the point reads, pages and legacy forms, named for readability. */
export const LedgerReadOp = {
  updateById: 'postV2UpdatesUpdate-by-id',
  updateByOffset: 'postV2UpdatesUpdate-by-offset',
  transactionById: 'postV2UpdatesTransaction-by-id',
  transactionByOffset: 'postV2UpdatesTransaction-by-offset',
  treeById: 'getV2UpdatesTransaction-tree-by-idUpdate-id',
  treeByOffset: 'getV2UpdatesTransaction-tree-by-offsetOffset',
  flats: 'postV2UpdatesFlats',
  trees: 'postV2UpdatesTrees',
  updatesPage: 'postV2UpdatesGet-updates-page',
  eventsByContractId: 'postV2EventsEvents-by-contract-id',
  contractById: 'postV2ContractsContract-by-id',
  activeContractsPage: 'getV2StateActive-contracts-page',
  activeContractsPagePost: 'postV2StateActive-contracts-page',
  submitAndWaitForTree: 'postV2CommandsSubmit-and-wait-for-transaction-tree',
} as const;
