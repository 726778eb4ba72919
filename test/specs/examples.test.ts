import { describe, expect, it } from 'vitest';
import { toProblems } from '../../conformance/src/schema/toProblems.js';
import { collectExamples, documentCompiler, openApiFiles, readDocument } from './specDocs.js';

// Every example in our OpenAPI documents satisfies its own schema (Prism serves them verbatim, and
// stoplightio/prism#1021 is what happens when nobody checks).
describe.each(openApiFiles)('examples of %s', (file) => {
  const doc = readDocument(file);
  const compile = documentCompiler(doc);
  const examples = collectExamples(doc);

  it('has examples to check', () => {
    expect(examples.length).toBeGreaterThan(0);
  });

  it('every example validates against its schema', () => {
    const failures = examples.flatMap((ex) => {
      const validate = compile(ex.schemaPointer);
      return validate(ex.value) ? [] : [`${ex.where}: ${JSON.stringify(toProblems(validate.errors))}`];
    });
    expect(failures).toEqual([]);
  });
});
