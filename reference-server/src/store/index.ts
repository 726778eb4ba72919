export type { LedgerStore, ActiveScope } from './LedgerStore.js';
export { MemoryStore } from './MemoryStore.js';
export { StoredContract, ACTIVE } from './StoredContract.js';
export type { ReassignmentStep } from './StoredContract.js';
export type {
  LogEntry,
  TransactionEntry,
  ReassignmentEntry,
  TopologyEntry,
  RejectionEntry,
  TxNode,
  CreateNode,
  ExerciseNode,
  SubmissionInfo,
} from './LogEntry.js';
export type { StoredParty, StoredUser, DedupRecord, TemplateDeclaration } from './records.js';
export { MemoryAdminStore, emptyAdminState } from './AdminStore.js';
export type { AdminStore, AdminState, StoredPackage, SynchronizerVetting, VettingBounds, StoredIdentityProvider } from './AdminStore.js';
