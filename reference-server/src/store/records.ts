/** Non-ledger state the store keeps: parties, users, deduplication records. */

export interface StoredParty {
  readonly party: string;
  readonly isLocal: boolean;
  annotations: Record<string, string>;
  resourceVersion: number;
  readonly identityProviderId: string;
  /** Public key fingerprint of an external party (interactive submission). */
  readonly externalKey?: { readonly format: string; readonly keyData: string; readonly keySpec: string };
}

export interface StoredUser {
  readonly id: string;
  primaryParty: string | undefined;
  isDeactivated: boolean;
  annotations: Record<string, string>;
  resourceVersion: number;
  readonly identityProviderId: string;
  /** Rights in canonical string form (`CanActAs:<party>`, `ParticipantAdmin`, ...), in grant order. */
  readonly rights: Set<string>;
}

/** The accepted submission that occupies a change id. */
export interface DedupRecord {
  readonly userId: string;
  readonly actAsKey: string;
  readonly commandId: string;
  readonly offset: number;
  readonly recordTime: number;
  readonly submissionId: string | undefined;
}
