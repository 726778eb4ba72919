/**
 * Wire shapes of interactive submission and external party onboarding (JSON Ledger API v2,
 * specs/ledger.openapi.yaml). Optional fields are optional here too: the core checks values, the
 * HTTP face has already checked shapes.
 */
import type { Command, DeduplicationPeriod, DisclosedContract, Duration, JsTransaction, TransactionFormat } from '../wire.js';

export type HashingSchemeVersion = 'HASHING_SCHEME_VERSION_UNSPECIFIED' | 'HASHING_SCHEME_VERSION_V2' | 'HASHING_SCHEME_VERSION_V3';

export interface SigningPublicKey {
  /** `CRYPTO_KEY_FORMAT_RAW` or `CRYPTO_KEY_FORMAT_DER_X509_SUBJECT_PUBLIC_KEY_INFO`. */
  format: string;
  /** Base64. */
  keyData: string;
  /** `SIGNING_KEY_SPEC_EC_CURVE25519` (Ed25519) or `SIGNING_KEY_SPEC_EC_P256`. */
  keySpec: string;
}

export interface Signature {
  /** `SIGNATURE_FORMAT_CONCAT` or `_RAW` (Ed25519), `SIGNATURE_FORMAT_DER` (ECDSA). */
  format: string;
  /** Base64. */
  signature: string;
  /** Fingerprint of the signing key. */
  signedBy: string;
  signingAlgorithmSpec: string;
}

export interface GenerateExternalPartyTopologyRequest {
  synchronizer: string;
  partyHint: string;
  publicKey: SigningPublicKey;
  localParticipantObservationOnly?: boolean;
  otherConfirmingParticipantUids?: string[];
  confirmationThreshold?: number;
  observingParticipantUids?: string[];
}

export interface GenerateExternalPartyTopologyResponse {
  partyId: string;
  publicKeyFingerprint: string;
  /** Base64. */
  topologyTransactions: string[];
  /** Base64: what the party signs to prove it holds the key. */
  multiHash: string;
}

export interface SignedTransaction {
  transaction: string;
  signatures?: Signature[];
}

export interface AllocateExternalPartyRequest {
  synchronizer: string;
  onboardingTransactions: SignedTransaction[];
  multiHashSignatures?: Signature[];
  identityProviderId?: string;
  waitForAllocation?: boolean;
  userId?: string;
}

export interface AllocateExternalPartyResponse {
  partyId: string;
}

export interface MinLedgerTime {
  time?: { Empty: Record<string, never> } | { MinLedgerTimeAbs: { value: string } } | { MinLedgerTimeRel: { value: Duration } };
}

export interface JsPrepareSubmissionRequest {
  userId?: string;
  commandId: string;
  commands: Command[];
  minLedgerTime?: MinLedgerTime;
  actAs: string[];
  readAs?: string[];
  disclosedContracts?: DisclosedContract[];
  synchronizerId?: string;
  packageIdSelectionPreference?: string[];
  verboseHashing?: boolean;
  prefetchContractKeys?: unknown[];
  maxRecordTime?: string;
  estimateTrafficCost?: { disabled?: boolean; expectedSignatures?: string[] };
  tapsMaxPasses?: number;
  hashingSchemeVersion?: HashingSchemeVersion;
}

export interface CostEstimation {
  estimationTimestamp: string;
  confirmationRequestTrafficCostEstimation: number;
  confirmationResponseTrafficCostEstimation: number;
  totalTrafficCostEstimation: number;
}

export interface JsPrepareSubmissionResponse {
  preparedTransaction: string;
  preparedTransactionHash: string;
  hashingSchemeVersion: HashingSchemeVersion;
  hashingDetails?: string;
  costEstimation?: CostEstimation;
}

export interface JsExecuteSubmissionRequest {
  preparedTransaction: string;
  partySignatures: { signatures: { party: string; signatures: Signature[] }[] };
  deduplicationPeriod?: DeduplicationPeriod;
  submissionId: string;
  userId?: string;
  hashingSchemeVersion: HashingSchemeVersion;
  minLedgerTime?: MinLedgerTime;
}

export interface JsExecuteSubmissionAndWaitForTransactionRequest extends JsExecuteSubmissionRequest {
  transactionFormat?: TransactionFormat;
}

export type ExecuteSubmissionResponse = Record<string, never>;

export interface ExecuteSubmissionAndWaitResponse {
  updateId: string;
  completionOffset: number;
}

export interface JsExecuteSubmissionAndWaitForTransactionResponse {
  transaction: JsTransaction;
}
