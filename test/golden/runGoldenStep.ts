import { findOperation, validateResponse } from '../../conformance/src/schema/index.js';
import type { GoldenExpect, GoldenRequest, GoldenStep } from './goldenCase.js';

export interface StepOutcome {
  /** Everything that did not match; empty when the step passed. */
  readonly failures: string[];
  readonly status: number;
  readonly text: string;
  readonly json: unknown;
}

/**
 * Sends one request to `baseUrl` and checks the answer: status, content type, body (subset or
 * exact text), and conformance to our spec. Placeholders `${name}` are filled from `vars`;
 * `capture` adds to them.
 */
export async function runGoldenStep(baseUrl: string, step: GoldenStep, vars: Map<string, unknown>): Promise<StepOutcome> {
  const request = fill(step.request, vars) as GoldenRequest;
  const expected = fill(step.expect, vars) as GoldenExpect;
  const body = request.bodyBase64 !== undefined ? Buffer.from(request.bodyBase64, 'base64') : (request.bodyText ?? (request.body === undefined ? undefined : JSON.stringify(request.body)));
  const response = await fetch(baseUrl.replace(/\/$/, '') + request.path, {
    method: request.method,
    headers: request.headers ?? {},
    ...(body === undefined ? {} : { body }),
  });
  const text = await response.text();
  const contentType = response.headers.get('content-type') ?? '';
  let json: unknown = undefined;
  if (contentType.startsWith('application/json')) {
    try {
      json = JSON.parse(text) as unknown;
    } catch {
      json = undefined;
    }
  }

  const failures: string[] = [];
  if (response.status !== expected.status) failures.push(`status ${response.status}, expected ${expected.status}`);
  if (expected.contentType !== undefined && !contentType.startsWith(expected.contentType)) {
    failures.push(`content type '${contentType}', expected '${expected.contentType}'`);
  }
  if (expected.bodyText !== undefined && text !== expected.bodyText) failures.push(`body text differs: ${JSON.stringify(text.slice(0, 200))}`);
  if (expected.bodyMatches !== undefined && !new RegExp(expected.bodyMatches).test(text)) {
    failures.push(`body ${JSON.stringify(text.slice(0, 200))} does not match /${expected.bodyMatches}/`);
  }
  if (expected.body !== undefined) failures.push(...subsetMismatches(expected.body, json, 'body'));
  if (expected.conforms !== false) {
    // The spec of the path's group: registry (A), ledger (B) or scan (C).
    const spec = findOperation(request.method, request.path)?.group ?? 'ledger';
    const verdict = validateResponse({ spec, method: request.method, path: request.path, status: response.status, contentType, body: text === '' ? undefined : text });
    if (!verdict.ok) failures.push(...verdict.problems.map((p) => `spec: ${p.pointer || '(body)'} ${p.message}`));
  }
  if (failures.length === 0) {
    for (const [name, path] of Object.entries(step.capture ?? {})) {
      const value = path.split('.').reduce<unknown>((at, key) => (at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined), json);
      if (value === undefined) failures.push(`capture ${name}: nothing at ${path}`);
      else vars.set(name, value);
    }
  }
  if (failures.length > 0) failures.unshift(`${request.method} ${request.path} -> ${response.status} ${text.slice(0, 300)}`);
  return { failures, status: response.status, text, json };
}

/**
 * `${name}` -> its value, in every string of a request or expectation (keys included). A string
 * that is nothing but one placeholder takes the captured value with its type (an offset stays a
 * number); inside a longer string the value is spliced in as text.
 */
function fill(value: unknown, vars: Map<string, unknown>): unknown {
  if (typeof value === 'string') {
    const whole = /^\$\{([A-Za-z0-9_]+)\}$/.exec(value);
    if (whole !== null && vars.has(whole[1] as string)) return vars.get(whole[1] as string);
    return value.replace(/\$\{([A-Za-z0-9_]+)\}/g, (text, name: string) => (vars.has(name) ? String(vars.get(name)) : text));
  }
  if (Array.isArray(value)) return value.map((v) => fill(v, vars));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [fill(k, vars) as string, fill(v, vars)]));
  }
  return value;
}

/**
 * Where `actual` does not contain `expected`: objects by the members expected, arrays element by
 * element (same length), scalars equal. The marker strings `$any`, `$string`, `$number` and
 * `$absent` match any value, any string, any number, and a missing member.
 */
export function subsetMismatches(expected: unknown, actual: unknown, at: string): string[] {
  if (expected === '$any') return actual === undefined ? [`${at}: missing`] : [];
  if (expected === '$absent') return actual === undefined ? [] : [`${at}: expected absent, got ${JSON.stringify(actual)}`];
  if (expected === '$string') return typeof actual === 'string' ? [] : [`${at}: expected a string, got ${JSON.stringify(actual)}`];
  if (expected === '$number') return typeof actual === 'number' ? [] : [`${at}: expected a number, got ${JSON.stringify(actual)}`];
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${at}: expected an array, got ${JSON.stringify(actual)?.slice(0, 100)}`];
    if (actual.length !== expected.length) return [`${at}: ${actual.length} elements, expected ${expected.length}`];
    return expected.flatMap((e, i) => subsetMismatches(e, actual[i], `${at}[${i}]`));
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return [`${at}: expected an object, got ${JSON.stringify(actual)?.slice(0, 100)}`];
    return Object.entries(expected).flatMap(([k, v]) => subsetMismatches(v, (actual as Record<string, unknown>)[k], `${at}.${k}`));
  }
  return Object.is(expected, actual) ? [] : [`${at}: ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`];
}
