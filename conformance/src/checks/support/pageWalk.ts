import type { Exchange } from '../../target/exchange.js';
import type { CheckContext } from '../types.js';
import { expectStatus, objectBody, type Json } from './expect.js';

export interface PageWalkOptions {
  /** Names the pages in failures (`GET /v2/parties, page 3`); unnamed pages are `page 3`. */
  readonly what?: string;
  /** Pages read at most (default 200): a walk still offered a next page then is not `complete`. */
  readonly limit?: number;
  /** Judges each page as it comes (its body, its items, its exchange). */
  readonly onPage?: (body: Json, page: unknown[], e: Exchange) => void;
  /** Follow the token of an empty page (a filtered page may hold nothing and still point on); otherwise an empty page ends the walk. */
  readonly followEmpty?: boolean;
}

/**
 * Reads a paginated list page by page (`nextPageToken`), each answer a 200 with a JSON object.
 * `complete` is false when the walk stopped at its limit with a next page still offered: a target
 * holding more than the walk reads is not at fault, so callers judge what the pages read show.
 */
export async function pageWalk(
  ctx: CheckContext,
  send: (token: string | undefined) => Promise<Exchange>,
  itemsOf: (body: Json, e: Exchange) => unknown[],
  o: PageWalkOptions = {},
): Promise<{ items: unknown[]; pages: number; last: Exchange; first: Json; complete: boolean }> {
  const items: unknown[] = [];
  const limit = o.limit ?? 200;
  const name = (n: number) => (o.what === undefined ? `page ${n}` : `${o.what}, page ${n}`);
  let token: string | undefined;
  let pages = 0;
  let first: Json | undefined;
  let last: Exchange;
  const tokens = new Map<string, number>();
  do {
    last = await send(token);
    expectStatus(ctx, last, 200, name(pages + 1));
    const body = objectBody(ctx, last, name(pages + 1));
    first ??= body;
    const page = itemsOf(body, last);
    o.onPage?.(body, page, last);
    items.push(...page);
    token = typeof body.nextPageToken === 'string' && body.nextPageToken !== '' && (page.length > 0 || o.followEmpty === true) ? body.nextPageToken : undefined;
    // A token handed out twice leads where it led before: the walk would go round for ever.
    if (token !== undefined && tokens.has(token)) return ctx.fail(`${name(pages + 1)}: nextPageToken ${JSON.stringify(token)} was already handed out on page ${tokens.get(token)}: a client walking the pages never reaches the end`, last);
    if (token !== undefined) tokens.set(token, pages + 1);
    pages++;
  } while (token !== undefined && pages < limit);
  return { items, pages, last, first: first!, complete: token === undefined };
}
