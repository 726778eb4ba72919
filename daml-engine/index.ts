// Public entry of the Daml-LF 2 engine: what the reference server's ledger core and the conformance
// suite both use (decode a DAR, evaluate, run updates and Daml Script, JSON API values). It holds no
// store and speaks no HTTP; callers hand it packages and contracts. Internals: README.md here.
export type { Dar } from './decode/decodeDar.js';
export { decodeDar, parseManifest } from './decode/decodeDar.js';
export type { PackageCache } from './decode/decodeArchive.js';
export { decodeArchive, SUPPORTED_LF2_MINORS } from './decode/decodeArchive.js';
export type { DecodeFailure, DecodeResult } from './decode/DecodeFailure.js';
export type { PackageSource } from './decode/Packages.js';
export { Packages, compareVersions, lookupDataType, lookupInterface, lookupTemplate, lookupValue } from './decode/Packages.js';
export type { Package } from './ast/Package.js';
export type { QualifiedName, Type } from './ast/Type.js';
export type { Value } from './value/Value.js';
export { Evaluator } from './eval/Evaluator.js';
export type { EvaluatorOptions } from './eval/Evaluator.js';
export type { LedgerContract, Submission, SubmissionResult, UpdateEngineOptions } from './update/UpdateEngine.js';
export { UpdateEngine, createCommand, exerciseCommand, exerciseInterfaceCommand } from './update/UpdateEngine.js';
export type { Decoded, JsonProblem } from './json/jsonValue.js';
export { decodeJson, encodeJson } from './json/jsonValue.js';
export type { LoadDarResult, LoadedDar, RunScriptsOptions, ScriptLedgerFactory, ScriptLedgerSetup, ScriptResult } from './script/runDarScripts.js';
export { inMemoryScriptLedger, loadDarScripts, runDarScripts } from './script/runDarScripts.js';
export { findScripts, scriptName } from './script/findScripts.js';
export type { BuiltPackage, ChoiceScope, ChoiceSpec, FieldsSpec, ImplementsSpec, InterfaceSpec, PackageBuilderOptions, ScopedExpr, TemplateScope, TemplateSpec, TypeHandle } from './build/PackageBuilder.js';
export { ModuleBuilder, PackageBuilder, SELF_PACKAGE_ID, buildPackage } from './build/PackageBuilder.js';
export { Alt, E } from './build/E.js';
export type { BindingSpec, TyconLike } from './build/E.js';
export { T } from './build/T.js';
export { EncodeError, encodePackage, encodePackagePayload } from './encode/encodePackage.js';
export type { EncodedArchive } from './encode/encodeArchive.js';
export { encodeArchive, encodePackageArchive } from './encode/encodeArchive.js';
export type { DarInput } from './encode/encodeDar.js';
export { encodeDar } from './encode/encodeDar.js';
export type { Expr, Update } from './ast/Expr.js';
export type { CreateNode, ExerciseNode, Transaction, TxNode } from './update/Transaction.js';
export type { EvalError } from './eval/EvalResult.js';
export type { DataTypes } from './json/DataTypes.js';
export { packageDataTypes } from './json/packageDataTypes.js';
export { parseTimestamp } from './json/jsonValue.js';
