import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJavaInteger } from '../../reference-server/src/http/api/readQuery.js';
import { expectCantonError } from './support/cantonError.js';
import { get } from './support/ledgerApi.js';
import { startServer, type TestServer } from './support/startServer.js';
import { allocateParty, fresh } from './support/world.js';

/**
 * Integer query and path parameters decode as the participant's HTTP layer decodes them: tapir's
 * Int and Long codecs (Java's parseInt / parseLong). What does not decode is a 400 text/plain
 * naming the parameter; a value that decodes goes on to the service, which refuses what it must.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  for (let i = 0; i < 2; i++) await allocateParty(server, fresh('page'));
});
afterAll(() => server.close());

describe('the Int and Long decoders', () => {
  it('take an optional sign and decimal digits within the range', () => {
    expect(parseJavaInteger('2147483647', 'int32')).toBe(2147483647n);
    expect(parseJavaInteger('-2147483648', 'int32')).toBe(-2147483648n);
    expect(parseJavaInteger('+5', 'int32')).toBe(5n);
    expect(parseJavaInteger('007', 'int32')).toBe(7n);
    expect(parseJavaInteger('9223372036854775807', 'int64')).toBe(2n ** 63n - 1n);
    expect(parseJavaInteger('-9223372036854775808', 'int64')).toBe(-(2n ** 63n));
    for (const bad of ['2147483648', '-2147483649', '', '+', '-', '1.0', '1e3', '0x10', ' 1', '1 ', 'ten']) expect(parseJavaInteger(bad, 'int32'), bad).toBeUndefined();
    expect(parseJavaInteger('9223372036854775808', 'int64')).toBeUndefined();
  });
});

describe('pageSize (Int) of the user and party lists', () => {
  for (const path of ['/v2/users', '/v2/parties']) {
    it(`${path}: past the Int range is undecodable, a 400 text/plain`, async () => {
      for (const v of ['2147483648', '-2147483649', '99999999999']) {
        const res = await get(server, `${path}?pageSize=${v}`);
        expect(res.status, v).toBe(400);
        expect(res.headers['content-type']).toMatch(/^text\/plain/);
        expect(res.text).toBe('Invalid value for: query parameter pageSize');
      }
    });

    it(`${path}: the largest Int and a signed value decode; a page is capped at the maximum`, async () => {
      expect((await get(server, `${path}?pageSize=2147483647`)).status).toBe(200);
      const one = await get(server, `${path}?pageSize=%2B1`);
      expect(one.status).toBe(200);
      expect((one.body.users ?? one.body.partyDetails) as unknown[]).toHaveLength(1);
    });
  }

  it('a negative pageSize decodes and the user service refuses it with its own words', async () => {
    const res = await get(server, '/v2/users?pageSize=-1');
    expect(res.status).toBe(400);
    expectCantonError(res.body, 'INVALID_ARGUMENT', /Max page size must be non-negative/);
  });

  it('a negative pageSize decodes and the party service refuses it', async () => {
    const res = await get(server, '/v2/parties?pageSize=-1');
    expect(res.status).toBe(400);
    expectCantonError(res.body, 'INVALID_ARGUMENT', /page_size must be a non-negative integer/);
  });
});

describe('offset (Long) in a path', () => {
  it('past the Long range is undecodable; a signed offset decodes', async () => {
    const big = await get(server, '/v2/updates/transaction-tree-by-offset/9223372036854775808?parties=x');
    expect(big.status).toBe(400);
    expect(big.text).toBe('Invalid value for: path parameter offset');
    const signed = await get(server, '/v2/updates/transaction-tree-by-offset/%2B999999?parties=x');
    expect(signed.text).not.toBe('Invalid value for: path parameter offset');
  });
});
