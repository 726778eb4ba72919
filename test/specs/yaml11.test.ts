import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get } from '../http/support/ledgerApi.js';
import { startServer, type TestServer } from '../http/support/startServer.js';
import { asyncApiFile, openApiFiles } from './specDocs.js';
import { yaml11Problems } from './yaml11Portable.js';

describe('every document loads in a YAML 1.1 loader (PyYAML, Schemathesis)', () => {
  it.each([...openApiFiles, asyncApiFile])('%s has no anchors, aliases or 1.1-ambiguous scalars', (file) => {
    expect(yaml11Problems(readFileSync(file, 'utf8'))).toEqual([]);
  });

  describe('as served', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startServer();
    });
    afterAll(() => server.close());

    it.each(['/docs/openapi', '/docs/asyncapi'])('GET %s', async (path) => {
      const res = await get(server, path);
      expect(res.status).toBe(200);
      expect(yaml11Problems(res.text)).toEqual([]);
    });
  });

  it('the check finds what PyYAML refuses or reads differently', () => {
    const twice = 'a: &id001\n  x: 1\nb: *id001\nc: &id001\n  y: 2\nd: *id001\n';
    expect(yaml11Problems(twice)).toEqual(['line 2: anchor &id001', 'line 3: alias *id001', 'line 5: anchor &id001', 'line 6: alias *id001']);
    expect(yaml11Problems('enabled: yes\n')).toHaveLength(1);
    expect(yaml11Problems('at: 2025-01-01\n')).toHaveLength(1);
    expect(yaml11Problems("at: '2025-01-01'\nenabled: 'yes'\n")).toEqual([]);
  });
});
