/** Interactive submission of Daml-LF engine transactions (see the Daml engine README, "Interactive submission"). */
export { engineValueToProto, keptFieldCount, protoIdentifier, MAX_NESTING } from './engineValueToProto.js';
export type { ProtoValueResult, ValueEncodingFailure } from './engineValueToProto.js';
export { protoToEngineValue, qualifiedNameOf } from './protoToEngineValue.js';
export type { EngineValueResult } from './protoToEngineValue.js';
export { inputContractIds, preparedTransactionOfEngine } from './preparedTransactionOfEngine.js';
export type { EngineInputContract, EnginePreparation, PrepareFailure, PrepareResult } from './preparedTransactionOfEngine.js';
export { engineTransactionOfPrepared } from './engineTransactionOfPrepared.js';
export type { SignedEngineTransaction, SignedFacts, SignedResult } from './engineTransactionOfPrepared.js';
export { commandsUpdate, rootCommandsOf } from './rootCommands.js';
export { prepareEngineCommands, reinterpretSigned, rerunWith, runEngineCommands, submissionSeedOf } from './engineSubmission.js';
export type { EnginePrepareResult, EngineRun, ExecuteCheck, Rerun } from './engineSubmission.js';
export { serializationVersionOf, transactionVersionOf } from './serializationVersion.js';
export { lfVersionProblem } from './lfVersionProblem.js';
