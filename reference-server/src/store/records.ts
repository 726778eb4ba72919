/** Non-ledger state the store keeps: parties, users, deduplication records, declared templates. */

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
  identityProviderId: string;
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

/**
 * A template declared at run time, as its source declared it (JSON), so that a restarted server
 * can declare it again before the update log that uses it is replayed.
 */
export interface TemplateDeclaration {
  /** `#package-name:Module:Entity`. */
  readonly templateId: string;
  /** Who reads `body` back: `fixture` (fixtures/restoreDeclaredTemplates.ts). */
  readonly source: string;
  readonly body: unknown;
}
