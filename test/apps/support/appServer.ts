import supertest, { type Response } from 'supertest';
import { expect } from 'vitest';
import { validateResponse, type SpecGroup } from '../../../conformance/src/schema/index.js';
import { createApps, type AppsOptions } from '../../../reference-server/src/apps/index.js';
import { APP_WORLD_TIME, seedAppWorld, type AppWorld } from '../../../reference-server/src/apps/world/seedAppWorld.js';
import { silentLogger } from '../../../reference-server/src/http/api/consoleLogger.js';
import type { ApiLogger } from '../../../reference-server/src/http/api/services.js';
import { createLedger, ManualClock, type DamlRecord, type Ledger } from '../../../reference-server/src/ledger/index.js';
import { createReferenceServer, type ReferenceServer } from '../../../reference-server/src/server.js';

/** A registry's choice context as a wallet receives it. */
export interface RegistryContext {
  choiceContextData: { values: DamlRecord };
  disclosedContracts: { templateId: string; contractId: string; createdEventBlob: string; synchronizerId: string }[];
}
/** A factory answer: the factory's contract id and the context its choice needs. */
export interface RegistryFactory {
  factoryId: string;
  transferKind?: string;
  choiceContext: RegistryContext;
}

export const HOUR = 3_600_000;
export const iso = (ms: number): string => new Date(ms).toISOString();

/** Stops a test server, after checking that it logged no unexpected error. */
export async function closeAppServer(server: AppServer | undefined): Promise<void> {
  expect(server?.errors ?? []).toEqual([]);
  await server?.close();
}

/** Ledger time of every test world: the default world's seeding time. */
export const WORLD_TIME = APP_WORLD_TIME;

export interface AppServer extends ReferenceServer {
  readonly http: ReturnType<typeof supertest>;
  readonly clock: ManualClock;
  /** Errors the server logged: stays empty unless something failed unexpectedly. */
  readonly errors: string[];
}

/** A reference server on a free port over a ledger with a manual clock, with the apps attached. */
export async function startAppServer(options: { apps?: AppsOptions; load?: (ledger: Ledger) => AppsOptions; prepare?: (ledger: Ledger) => void } = {}): Promise<AppServer> {
  const clock = new ManualClock(WORLD_TIME);
  const ledger = createLedger({ clock });
  // `load` runs before the apps attach (Splice's DARs, whose templates the apps index) and adds to their options.
  createApps(ledger, { ...options.apps, ...options.load?.(ledger) });
  options.prepare?.(ledger);
  const errors: string[] = [];
  const log: ApiLogger = { ...silentLogger, error: (message, cause) => errors.push(`${message}: ${String(cause)}`) };
  const server = await createReferenceServer({ port: 0, host: '127.0.0.1', ledger, log });
  return Object.assign(server, { http: supertest(server.url), clock, errors });
}

/** The same, over the apps' default world. */
export async function startWorldServer(options: { apps?: AppsOptions } = {}): Promise<{ server: AppServer; world: AppWorld }> {
  let world: AppWorld | undefined;
  const server = await startAppServer({
    ...options,
    prepare: (ledger) => {
      const seeded = seedAppWorld(ledger);
      if (!seeded.ok) throw new Error(`seeding failed: ${seeded.error.code}: ${seeded.error.cause}`);
      world = seeded.value;
    },
  });
  return { server, world: world as AppWorld };
}

const SCAN_PREFIX = '/api/scan';

/** Which of our specs describes a path (Scan's also under its deployed prefix, a test token's registry under `/registries/{admin}`). */
function specOf(path: string): { spec: SpecGroup; path: string } {
  if (path.startsWith('/registry/')) return { spec: 'registry', path };
  // A test token's registry, under its admin's prefix.
  const prefixed = /^\/registries\/[^/]+(\/registry\/.*)$/.exec(path);
  if (prefixed) return { spec: 'registry', path: prefixed[1]! };
  if (path.startsWith(`${SCAN_PREFIX}/`)) return { spec: 'scan', path: path.slice(SCAN_PREFIX.length) };
  if (path.startsWith('/v0/')) return { spec: 'scan', path };
  return { spec: 'ledger', path };
}

/** Asserts a response conforms to the spec of its group: status declared, content type, body schema. */
export function expectConforms(res: Response, method: string, path: string): Response {
  const { spec, path: specPath } = specOf(path.split('?')[0] as string);
  const verdict = validateResponse({ spec, method, path: specPath, status: res.status, contentType: res.headers['content-type'], body: res.text === '' ? undefined : res.text });
  expect(verdict.ok ? [] : verdict.problems, `${method} ${path} -> ${res.status} ${res.text.slice(0, 300)}`).toEqual([]);
  return res;
}

/** POST with a JSON body (no Content-Type, as the real clients differ on it), checked against the spec. */
export async function postJson(server: AppServer, path: string, body: unknown, raw = false): Promise<Response> {
  const text = raw ? (body as string) : JSON.stringify(body);
  const res = await server.http.post(path).send(Buffer.from(text, 'utf8'));
  return expectConforms(res, 'POST', path);
}

export async function getJson(server: AppServer, path: string): Promise<Response> {
  return expectConforms(await server.http.get(path), 'GET', path);
}

/** The `{"error": ...}` body of groups A and C, with a message matching `pattern`. */
export function expectError(res: Response, status: number, pattern: RegExp | string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(Object.keys(res.body as object)).toEqual(['error']);
  if (typeof pattern === 'string') expect(res.body.error).toBe(pattern);
  else expect(res.body.error).toMatch(pattern);
}

export const acceptPath = (id: string) => `/registry/allocation-instruction/v2/${id}/choice-contexts/accept`;
export const withdrawPath = (id: string) => `/registry/allocation-instruction/v2/${id}/choice-contexts/withdraw`;
export const preapprovalPath = (party: string) => `/v0/transfer-preapprovals/by-party/${encodeURIComponent(party)}`;
export const EARLIEST_ROUND = '/v0/internal/reward-accounting-process/rounds/earliest-available';
export const EARLIEST_ROUND_LEGACY = '/v0/reward-accounting-process/rounds/earliest-available';
