/** Interactive submission (prepare, sign, execute) and external party onboarding. */
export { InteractiveSubmission, interactiveSubmissionOf } from './InteractiveSubmission.js';
export { partyKeyOf, signatureProblem } from './signingKeys.js';
export type { KeyAlgorithm, PartyKey } from './signingKeys.js';
export { decodePreparedTransaction, encodePreparedTransaction, buildPreparedTransaction, commandsOf } from './preparedTransaction.js';
export { hashPreparedTransaction, hashingDetails, UnhashableTransaction } from './preparedTransactionHash.js';
export type { HashingScheme } from './preparedTransactionHash.js';
export { canonicalText } from './canonicalText.js';
export { HashPurpose, multihash } from './hashing.js';
export type * from './wire.js';
