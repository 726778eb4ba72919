import { request } from 'node:http';

export interface PageWalkTiming {
  readonly pages: number;
  readonly contracts: number;
  readonly distinct: number;
  readonly totalMs: number;
  /** Slowest single page, from request to last byte. */
  readonly slowestPageMs: number;
  readonly activeAtOffset: number | undefined;
}

/** GET with a JSON body (as Canton 3.5 declares the page read); fetch cannot send one. */
function getJson(url: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET', headers: { 'content-length': Buffer.byteLength(text) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(text);
  });
}

/**
 * Walks GET /v2/state/active-contracts-page from the first page to the last, `maxPageSize` at a
 * time, and counts what came back. `between` runs after each page (to move the ledger on).
 */
export async function walkActiveContractsPages(baseUrl: string, eventFormat: unknown, maxPageSize: number, between?: () => Promise<void>): Promise<PageWalkTiming> {
  const ids = new Set<string>();
  let contracts = 0;
  let pages = 0;
  let slowest = 0;
  let token: string | undefined;
  let activeAtOffset: number | undefined;
  const t0 = performance.now();
  do {
    const p0 = performance.now();
    const { status, json } = await getJson(`${baseUrl}/v2/state/active-contracts-page`, { eventFormat, maxPageSize, ...(token ? { pageToken: token } : {}) });
    slowest = Math.max(slowest, performance.now() - p0);
    if (status !== 200) throw new Error(`page ${pages + 1}: HTTP ${status} ${JSON.stringify(json).slice(0, 200)}`);
    activeAtOffset ??= json.activeAtOffset as number;
    for (const entry of json.activeContracts as { contractEntry: { JsActiveContract: { createdEvent: { contractId: string } } } }[]) {
      contracts++;
      ids.add(entry.contractEntry.JsActiveContract.createdEvent.contractId);
    }
    token = json.nextPageToken as string | undefined;
    pages++;
    if (between && token) await between();
  } while (token !== undefined);
  return { pages, contracts, distinct: ids.size, totalMs: performance.now() - t0, slowestPageMs: slowest, activeAtOffset };
}
