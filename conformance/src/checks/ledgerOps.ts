/** operationIds of specs/ledger.openapi.yaml (upstream's own ids), named for readability. */
export const LedgerOp = {
  version: 'getV2Version',
  ledgerEnd: 'getV2StateLedger-end',
  activeContracts: 'postV2StateActive-contracts',
  submitAndWait: 'postV2CommandsSubmit-and-wait',
  submitAndWaitForTransaction: 'postV2CommandsSubmit-and-wait-for-transaction',
  asyncSubmit: 'postV2CommandsAsyncSubmit',
  completions: 'postV2CommandsCompletions',
  updates: 'postV2Updates',
  deleteUser: 'deleteV2UsersUser-id',
  createUser: 'postV2Users',
  allocateParty: 'postV2Parties',
  connectedSynchronizers: 'getV2StateConnected-synchronizers',
  generateTopology: 'postV2PartiesExternalGenerate-topology',
  allocateExternal: 'postV2PartiesExternalAllocate',
  prepare: 'postV2Interactive-submissionPrepare',
  execute: 'postV2Interactive-submissionExecute',
  executeAndWait: 'postV2Interactive-submissionExecuteandwait',
  docsOpenapi: 'getDocsOpenapi',
  docsAsyncapi: 'getDocsAsyncapi',
  livez: 'getLivez',
  readyz: 'getReadyz',
} as const;

export const SD_B = 'service description, group B';
export const UPSTREAM_B = 'Canton JSON Ledger API v2';
