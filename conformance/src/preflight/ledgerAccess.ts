/**
 * What a participant asks of the caller per JSON Ledger API operation (Canton 3.5's authorization
 * of the gRPC services behind each endpoint, as the reference server also enforces it). The
 * preflight derives from it the rights the selected checks need.
 *
 * - `participant-admin`: ParticipantAdmin (packages, vetting, identity provider configs)
 * - `admin`: ParticipantAdmin or IdentityProviderAdmin (parties and users)
 * - `submit`: CanActAs the submitting party (CanExecuteAs for executing an interactive submission)
 * - `read`: CanReadAs the parties read as (CanActAs implies it), or CanReadAsAnyParty
 * - `public`: any caller the participant authenticates (or none: /livez, /docs)
 */
export type OperationAccess = 'participant-admin' | 'admin' | 'submit' | 'read' | 'public';

const ACCESS: Readonly<Record<string, OperationAccess>> = {
  'getV2Idps': 'participant-admin',
  'postV2Idps': 'participant-admin',
  'getV2IdpsIdp-id': 'participant-admin',
  'patchV2IdpsIdp-id': 'participant-admin',
  'deleteV2IdpsIdp-id': 'participant-admin',
  'patchV2UsersUser-idIdentity-provider-id': 'participant-admin',
  'postV2Packages': 'participant-admin',
  'postV2Dars': 'participant-admin',
  'postV2DarsValidate': 'participant-admin',
  'postV2Package-vettingUpdate': 'participant-admin',
  'postV2Package-vetting': 'participant-admin',
  'patchV2PartiesParty': 'admin',
  'postV2PartiesExternalGenerate-topology': 'admin',
  'postV2PartiesExternalAllocate': 'admin',
  'postV2Parties': 'admin',
  'getV2Parties': 'admin',
  'getV2PartiesParty': 'admin',
  // A user may read its own record and rights; the checks of these operations read and write other users.
  'postV2Users': 'admin',
  'getV2Users': 'admin',
  'getV2UsersUser-id': 'admin',
  'patchV2UsersUser-id': 'admin',
  'deleteV2UsersUser-id': 'admin',
  'getV2UsersUser-idRights': 'admin',
  'postV2UsersUser-idRights': 'admin',
  'patchV2UsersUser-idRights': 'admin',
  'postV2CommandsSubmit-and-wait': 'submit',
  'postV2CommandsSubmit-and-wait-for-transaction': 'submit',
  'postV2CommandsSubmit-and-wait-for-transaction-tree': 'submit',
  'postV2CommandsAsyncSubmit': 'submit',
  'postV2CommandsSubmit-and-wait-for-reassignment': 'submit',
  'postV2CommandsAsyncSubmit-reassignment': 'submit',
  // Preparing reads as the acting parties; executing acts for them (CanExecuteAs, implied by CanActAs).
  'postV2Interactive-submissionPrepare': 'read',
  'postV2Interactive-submissionExecute': 'submit',
  'postV2Interactive-submissionExecuteandwait': 'submit',
  'postV2Interactive-submissionExecuteandwaitfortransaction': 'submit',
  'postV2CommandsCompletions': 'read',
  // GetCompletions (3.5.7+): per party, or any party when `parties` is empty.
  'postV2CommandsCommand-completions': 'read',
  'postV2EventsEvents-by-contract-id': 'read',
  'postV2ContractsContract-by-id': 'read',
  'postV2StateActive-contracts': 'read',
  'getV2StateActive-contracts-page': 'read',
  'postV2StateActive-contracts-page': 'read',
  'postV2UpdatesUpdate-by-id': 'read',
  'postV2UpdatesUpdate-by-offset': 'read',
  // Canton 3.6: the same reads, by the transaction hash.
  'postV2UpdatesUpdate-by-hash': 'read',
  'postV2UpdatesTransaction-by-id': 'read',
  'postV2UpdatesTransaction-by-offset': 'read',
  'getV2UpdatesTransaction-tree-by-idUpdate-id': 'read',
  'getV2UpdatesTransaction-tree-by-offsetOffset': 'read',
  'postV2UpdatesGet-updates-page': 'read',
  'postV2Updates': 'read',
  'postV2UpdatesFlats': 'read',
  'postV2UpdatesTrees': 'read',
};

/** The access an operation needs; operations not listed (version, ledger end, packages, ...) need none beyond a valid token. */
export function accessOf(operationId: string): OperationAccess {
  return ACCESS[operationId] ?? 'public';
}
