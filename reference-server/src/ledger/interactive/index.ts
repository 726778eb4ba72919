/** Interactive submission (prepare, sign, execute) and external party onboarding. */
export { InteractiveSubmission, interactiveSubmissionOf } from './InteractiveSubmission.js';
export { partyKeyOf, signatureProblem } from './signingKeys.js';
export type { KeyAlgorithm, PartyKey } from './signingKeys.js';
export { decodePreparedTransaction, encodePreparedTransaction, preparedTransactionHash, hashingDetails, canonicalText, HASHING_SCHEMES } from './preparedTransaction.js';
export type { PreparedDocument, PreparedMetadata, NodeDocument, InputContractDocument } from './preparedTransaction.js';
export { HashPurpose, multihash } from './hashing.js';
export type * from './wire.js';
