import { parse as parseYaml } from 'yaml';
import { ledgerEnd } from './support/ledger.js';
import { expectStatus, isObject, objectBody, responseOf, snippet } from './support/expect.js';
import { LedgerOp, SD_B, UPSTREAM_B } from './ledgerOps.js';
import type { Exchange } from '../target/exchange.js';
import type { CheckContext, CheckDefinition } from './types.js';

const check = (c: Omit<CheckDefinition, 'group'>): CheckDefinition => ({ group: 'ledger', ...c });

/** GET a runtime API document (no token): 200 and a YAML body, or the check fails with the exchange. */
async function yamlDocument(ctx: CheckContext, path: string): Promise<{ e: Exchange; doc: unknown }> {
  const e = await ctx.http.request('ledger', { method: 'GET', path, auth: 'none' });
  expectStatus(ctx, e, 200, `GET ${path}`);
  try {
    return { e, doc: parseYaml(responseOf(e).text) as unknown };
  } catch (err) {
    return ctx.fail(`the body is not YAML: ${(err as Error).message.split('\n')[0]}`, e);
  }
}

export const ledgerBasicChecks: readonly CheckDefinition[] = [
  check({
    id: 'ledger.version.shape',
    title: 'GET /v2/version answers a version string and a features object',
    operationId: LedgerOp.version,
    level: 'MUST',
    kind: 'example',
    specRef: `${SD_B}: Version response (version and features required)`,
    async run(ctx) {
      const e = await ctx.http.request('ledger', { method: 'GET', path: '/v2/version' });
      expectStatus(ctx, e, 200, 'GET /v2/version');
      const body = objectBody(ctx, e, 'version');
      if (typeof body.version !== 'string' || body.version === '') ctx.fail('version must be a non-empty string', e);
      if (!isObject(body.features)) ctx.fail('features must be an object', e);
    },
  }),
  check({
    id: 'ledger.version.features',
    title: 'The feature descriptor reports user management, party and package page sizes and the checkpoint delay',
    operationId: LedgerOp.version,
    level: 'SHOULD',
    kind: 'example',
    specRef: `${SD_B}: Version response features.*; Limits`,
    async run(ctx) {
      const e = await ctx.http.request('ledger', { method: 'GET', path: '/v2/version' });
      expectStatus(ctx, e, 200, 'GET /v2/version');
      const f = objectBody(ctx, e, 'version').features;
      if (!isObject(f)) return ctx.fail('features must be an object', e);
      const at = (path: string): unknown => path.split('.').reduce<unknown>((v, k) => (isObject(v) ? v[k] : undefined), f);
      const problems: string[] = [];
      if (typeof at('userManagement.supported') !== 'boolean') problems.push('userManagement.supported (boolean)');
      for (const p of ['userManagement.maxRightsPerUser', 'userManagement.maxUsersPageSize', 'partyManagement.maxPartiesPageSize', 'packageFeature.maxVettedPackagesPageSize', 'offsetCheckpoint.maxOffsetCheckpointEmissionDelay.seconds', 'offsetCheckpoint.maxOffsetCheckpointEmissionDelay.nanos']) {
        if (!Number.isInteger(at(p))) problems.push(`${p} (integer)`);
      }
      if (problems.length > 0) ctx.fail(`features lacks ${problems.join(', ')}`, e);
    },
  }),
  check({
    id: 'ledger.version.features-honoured',
    title: 'The feature descriptor says what the participant does: user management answers as `supported` says, and user and party pages never exceed their announced maximum',
    operationId: LedgerOp.version,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_B}: VersionService features (UserManagementFeature.supported, max_users_page_size; PartyManagementFeature.max_parties_page_size): clients decide from them whether and how to call the services`,
    async run(ctx) {
      const v = await ctx.http.request('ledger', { method: 'GET', path: '/v2/version' });
      expectStatus(ctx, v, 200, 'GET /v2/version');
      const f = objectBody(ctx, v, 'version').features;
      if (!isObject(f)) return ctx.fail('features must be an object', v);
      const um = isObject(f.userManagement) ? f.userManagement : {};
      const pm = isObject(f.partyManagement) ? f.partyManagement : {};
      // pageSize 0: the participant's own page size, which must be within what it announced.
      const users = await ctx.http.request('ledger', { method: 'GET', path: '/v2/users', query: { pageSize: 0 } });
      const usersStatus = responseOf(users).status;
      if (um.supported === false && usersStatus === 200) ctx.fail('features.userManagement.supported is false, but GET /v2/users answers 200', users);
      if (um.supported === true && (usersStatus === 404 || usersStatus === 501)) ctx.fail(`features.userManagement.supported is true, but GET /v2/users answers ${usersStatus}`, users);
      const pageOver = (e: Exchange, list: string, max: unknown, what: string) => {
        if (responseOf(e).status !== 200 || !Number.isInteger(max) || (max as number) <= 0) return;
        const items = objectBody(ctx, e, what)[list];
        if (Array.isArray(items) && items.length > (max as number)) ctx.fail(`${what}: a page of ${items.length}, more than the ${String(max)} the feature descriptor announces`, e);
      };
      pageOver(users, 'users', um.maxUsersPageSize, 'GET /v2/users');
      const parties = await ctx.http.request('ledger', { method: 'GET', path: '/v2/parties', query: { pageSize: 0 } });
      pageOver(parties, 'partyDetails', pm.maxPartiesPageSize, 'GET /v2/parties');
    },
  }),
  check({
    id: 'ledger.ledger-end.shape',
    title: 'GET /v2/state/ledger-end answers {offset} as a non-negative integer',
    operationId: LedgerOp.ledgerEnd,
    level: 'MUST',
    kind: 'example',
    specRef: `${SD_B}: GET /v2/state/ledger-end`,
    async run(ctx) {
      await ledgerEnd(ctx);
    },
  }),
  check({
    id: 'ledger.ledger-end.monotonic',
    title: 'The ledger end never moves backwards across reads',
    operationId: LedgerOp.ledgerEnd,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_B}: offsets are int64, strictly increasing`,
    async run(ctx) {
      let last = -1;
      for (let i = 0; i < 6; i++) {
        const { offset, exchange } = await ledgerEnd(ctx);
        if (offset < last) ctx.fail(`ledger end went back from ${last} to ${offset}`, exchange);
        last = offset;
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  }),
  check({
    id: 'ledger.docs.openapi',
    title: 'GET /docs/openapi serves the OpenAPI document as YAML text',
    operationId: LedgerOp.docsOpenapi,
    level: 'SHOULD',
    kind: 'example',
    specRef: `${SD_B}: GET /docs/openapi (OpenAPI specification at runtime)`,
    async run(ctx) {
      const { e, doc } = await yamlDocument(ctx, '/docs/openapi');
      if (!isObject(doc) || typeof doc.openapi !== 'string' || !isObject(doc.paths)) return ctx.fail(`not an OpenAPI document (no openapi/paths): ${snippet(e)}`, e);
      if (!Object.keys(doc.paths).some((p) => p.endsWith('/v2/version'))) ctx.fail('the document does not describe /v2/version', e);
    },
  }),
  check({
    id: 'ledger.docs.asyncapi',
    title: 'GET /docs/asyncapi serves the AsyncAPI document as YAML text',
    operationId: LedgerOp.docsAsyncapi,
    level: 'SHOULD',
    kind: 'example',
    specRef: `${SD_B}: GET /docs/asyncapi (AsyncAPI specification at runtime)`,
    async run(ctx) {
      const { e, doc } = await yamlDocument(ctx, '/docs/asyncapi');
      if (!isObject(doc) || typeof doc.asyncapi !== 'string' || !isObject(doc.channels)) return ctx.fail(`not an AsyncAPI document (no asyncapi/channels): ${snippet(e)}`, e);
    },
  }),
  check({
    id: 'ledger.health.livez-readyz',
    title: 'GET /livez and /readyz answer 200 without a token',
    operationId: LedgerOp.livez,
    level: 'MAY',
    kind: 'example',
    specRef: 'Canton 3.5 JSON API: /livez and /readyz',
    async run(ctx) {
      for (const path of ['/livez', '/readyz']) {
        const e = await ctx.http.request('ledger', { method: 'GET', path, auth: 'none' });
        expectStatus(ctx, e, 200, `GET ${path}`);
      }
    },
  }),
];
