// ajv over our specs (or one the user passes): compiled once per process, O(path depth) lookup per call.
export { loadSpec, readDocument, specFile } from './loadSpec.js';
export { fetchSpec, isSpecUrl } from './remoteSpec.js';
export { validateResponse, declaredStatus } from './validateResponse.js';
export type { ResponseToValidate } from './validateResponse.js';
export { validateRequestBody } from './validateRequestBody.js';
export { moreValuesThan } from './moreValuesThan.js';
export { findOperation } from './findOperation.js';
export { ourSpecFile, packageRoot, SPEC_GROUPS, isSpecGroup } from './ourSpecFile.js';
export { createAjv } from './createAjv.js';
export { SpecLoadError } from './SpecLoadError.js';
export { SPEC_QUIRKS, tolerateQuirks } from './specQuirks.js';
export type { SpecQuirk, ToleratedQuirk } from './specQuirks.js';
export type {
  BodyValidator,
  CompiledOperation,
  CompiledSpec,
  HttpMethod,
  OperationMatch,
  Problem,
  SpecGroup,
  SpecSource,
  ValidationResult,
} from './types.js';
