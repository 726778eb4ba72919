import type { LedgerError } from './errors.js';
import { fail } from './errors.js';
import type { Result } from './result.js';
import type { LedgerConfig, LedgerOptions } from './config.js';
import { resolveConfig } from './config.js';
import { Catalogue } from './templates/Catalogue.js';
import type { ContractView } from './templates/types.js';
import type * as W from './wire.js';

/** A claim the auth layer checks against the user's rights (`Ledger.authorize`). */
export type Claim =
  | { readonly kind: 'actAs'; readonly party: string }
  | { readonly kind: 'readAs'; readonly party: string }
  | { readonly kind: 'executeAs'; readonly party: string }
  | { readonly kind: 'readAsAnyParty' }
  | { readonly kind: 'participantAdmin' }
  | { readonly kind: 'identityProviderAdmin' };

export interface SubscribeOptions {
  readonly signal?: AbortSignal;
}

export type R<T> = Result<T, LedgerError>;

const todo = (what: string) => fail('UNIMPLEMENTED', `${what} is not implemented yet`);

/** The ledger: one participant with two synchronizers. No HTTP in here. */
export class Ledger {
  readonly config: LedgerConfig;
  readonly catalogue: Catalogue;

  constructor(options: LedgerOptions = {}) {
    this.config = resolveConfig(options);
    this.catalogue = new Catalogue();
  }

  version(): W.GetLedgerApiVersionResponse {
    return { version: this.config.apiVersion, features: this.config.features };
  }
  participantId(): W.GetParticipantIdResponse {
    return { participantId: this.config.participantId };
  }
  ledgerEnd(): W.GetLedgerEndResponse {
    return { offset: 0 };
  }
  latestPrunedOffsets(): W.GetLatestPrunedOffsetsResponse {
    return { participantPrunedUpToInclusive: 0, allDivulgedContractsPrunedUpToInclusive: 0 };
  }
  connectedSynchronizers(_query: { party?: string; participantId?: string } = {}): R<W.GetConnectedSynchronizersResponse> {
    return todo('connectedSynchronizers');
  }

  allocateParty(_req: W.AllocatePartyRequest): R<W.AllocatePartyResponse> {
    return todo('allocateParty');
  }
  listParties(_req: W.ListKnownPartiesRequest = {}): R<W.ListKnownPartiesResponse> {
    return todo('listParties');
  }
  getParties(_parties: readonly string[]): R<W.GetPartiesResponse> {
    return todo('getParties');
  }

  createUser(_req: W.CreateUserRequest): R<W.CreateUserResponse> {
    return todo('createUser');
  }
  getUser(_userId: string): R<W.GetUserResponse> {
    return todo('getUser');
  }
  listUsers(_req: W.ListUsersRequest = {}): R<W.ListUsersResponse> {
    return todo('listUsers');
  }
  updateUser(_userId: string, _req: W.UpdateUserRequest): R<W.UpdateUserResponse> {
    return todo('updateUser');
  }
  deleteUser(_userId: string, _callerUserId?: string): R<W.DeleteUserResponse> {
    return todo('deleteUser');
  }
  grantUserRights(_userId: string, _req: W.GrantUserRightsRequest): R<W.GrantUserRightsResponse> {
    return todo('grantUserRights');
  }
  revokeUserRights(_userId: string, _req: W.RevokeUserRightsRequest): R<W.RevokeUserRightsResponse> {
    return todo('revokeUserRights');
  }
  listUserRights(_userId: string): R<W.ListUserRightsResponse> {
    return todo('listUserRights');
  }
  authorize(_userId: string, _claims: readonly Claim[]): R<void> {
    return todo('authorize');
  }

  submitAndWait(_commands: W.JsCommands): R<W.SubmitAndWaitResponse> {
    return todo('submitAndWait');
  }
  submitAndWaitForTransaction(_req: W.JsSubmitAndWaitForTransactionRequest): R<W.JsSubmitAndWaitForTransactionResponse> {
    return todo('submitAndWaitForTransaction');
  }
  submitAsync(_commands: W.JsCommands): R<W.SubmitResponse> {
    return todo('submitAsync');
  }

  activeContracts(_req: W.GetActiveContractsRequest): R<Iterable<W.JsGetActiveContractsResponse>> {
    return todo('activeContracts');
  }
  updates(_req: W.GetUpdatesRequest): R<Iterable<W.JsGetUpdatesResponse>> {
    return todo('updates');
  }
  subscribeUpdates(_req: W.GetUpdatesRequest, _opts: SubscribeOptions = {}): R<AsyncIterable<W.JsGetUpdatesResponse>> {
    return todo('subscribeUpdates');
  }
  completions(_req: W.CompletionStreamRequest): R<Iterable<W.CompletionStreamResponse>> {
    return todo('completions');
  }
  subscribeCompletions(_req: W.CompletionStreamRequest, _opts: SubscribeOptions = {}): R<AsyncIterable<W.CompletionStreamResponse>> {
    return todo('subscribeCompletions');
  }

  contract(_contractId: string): ContractView | undefined {
    return undefined;
  }
  isInFlight(_contractId: string): boolean {
    return false;
  }
  prune(_upToInclusive: number): R<void> {
    return todo('prune');
  }
}

export function createLedger(options: LedgerOptions = {}): Ledger {
  return new Ledger(options);
}
