import { setupServer, type SetupServer } from 'msw/node';
import { silentLogger } from '../../../reference-server/src/http/api/consoleLogger.js';
import type { Authenticator } from '../../../reference-server/src/http/api/auth/types.js';
import type { HttpConfig } from '../../../reference-server/src/http/api/config.js';
import { seedAppWorld } from '../../../reference-server/src/apps/world/seedAppWorld.js';
import { createLedger, ManualClock, type LedgerOptions } from '../../../reference-server/src/ledger/index.js';
import { createHandlers, type MockLedgerApi } from '../../../reference-server/src/msw/index.js';
import { createReferenceServer, type ReferenceServer } from '../../../reference-server/src/server.js';

export const MOCK_URL = 'http://participant.test:7575';

/** What a response looked like on the wire, in the terms both faces can be compared in. */
export interface Answer {
  readonly status: number;
  readonly contentType: string | null;
  readonly body: string;
}

export interface Probe {
  readonly method: string;
  readonly path: string;
  /** Sent as is (no Content-Type, as the real ledger client sends bodies) unless headers say otherwise. */
  readonly body?: string;
  /** A binary body (a DAR upload), sent instead of `body`. */
  readonly bytes?: Uint8Array;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * The Koa reference server and the msw handlers over two ledgers started alike (same clock, same
 * blob key, same settings): sent the same requests in the same order, they must answer the same.
 */
export interface Twins {
  readonly koa: ReferenceServer;
  readonly mock: MockLedgerApi;
  readonly msw: SetupServer;
  /** Everything either face logged as an unexpected failure. */
  readonly errors: string[];
  send(probe: Probe): Promise<{ koa: Answer; msw: Answer }>;
  close(): Promise<void>;
}

const blobKey = new Uint8Array(32).fill(7);

export interface TwinOptions {
  readonly http?: Partial<HttpConfig>;
  /** Seed the registry's and Scan's sample world on both ledgers. */
  readonly appWorld?: boolean;
  /** The same authentication on both faces (default none). */
  readonly authenticator?: Authenticator;
}

export async function startTwins(options: TwinOptions = {}): Promise<Twins> {
  const http = options.http ?? {};
  const errors: string[] = [];
  const log = { ...silentLogger, error: (message: string, cause?: unknown) => errors.push(`${message}: ${String(cause)}`) };
  const ledgerOptions = (): LedgerOptions => ({ clock: new ManualClock(Date.UTC(2025, 0, 1)), blobKey });
  const koaLedger = createLedger(ledgerOptions());
  if (options.appWorld === true) {
    const seeded = seedAppWorld(koaLedger);
    if (!seeded.ok) throw new Error(`app world: ${seeded.error.cause}`);
  }
  const auth = options.authenticator === undefined ? {} : { authenticator: options.authenticator };
  const koa = await createReferenceServer({ port: 0, host: '127.0.0.1', log, http, ledger: koaLedger, ...auth });
  const mock = createHandlers({ ledgerUrl: MOCK_URL, log, http, ledgerOptions: ledgerOptions(), appWorld: options.appWorld === true, ...auth });
  const msw = setupServer(...mock.handlers);
  const koaWs = koa.url.replace(/^http/, 'ws');
  // Requests to the Koa server pass through msw; anything else unanswered is an error.
  msw.listen({
    onUnhandledRequest: (request, print) => {
      if (request.url.startsWith(koa.url) || request.url.startsWith(koaWs)) return;
      errors.push(`unhandled ${request.method} ${request.url}`);
      print.error();
    },
  });
  const fetchAnswer = async (base: string, probe: Probe): Promise<Answer> => {
    const res = await fetch(base + probe.path, {
      method: probe.method,
      ...(probe.bytes !== undefined ? { body: Buffer.from(probe.bytes) } : probe.body === undefined ? {} : { body: Buffer.from(probe.body, 'utf8') }),
      ...(probe.headers === undefined ? {} : { headers: probe.headers }),
    });
    const contentType = res.headers.get('content-type');
    // Binary answers (package archives) compare as their hash header and base64 bytes.
    if (contentType === 'application/octet-stream') {
      const bytes = Buffer.from(await res.arrayBuffer()).toString('base64');
      return { status: res.status, contentType, body: `${res.headers.get('canton-package-hash') ?? ''} ${bytes}` };
    }
    return { status: res.status, contentType, body: await res.text() };
  };
  return {
    koa,
    mock,
    msw,
    errors,
    send: async (probe) => ({ koa: await fetchAnswer(koa.url, probe), msw: await fetchAnswer(MOCK_URL, probe) }),
    close: async () => {
      msw.close();
      await koa.close();
    },
  };
}

/** Error bodies carry a fresh trace id per request; everything else must be equal byte for byte. */
export function withoutTraceIds(body: string): string {
  return body.replace(/"(traceId|tid)":"[0-9a-f]+"/g, '"$1":"<trace>"').replace(/with tid [0-9a-f]+/g, 'with tid <trace>');
}
