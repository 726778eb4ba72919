import type { IncomingMessage, Server } from 'node:http';

/**
 * Paces background writers (other applications on a participant in service) by the suite's own
 * requests: each waiting writer is released once per request or WebSocket upgrade the suite sends,
 * so the run interleaves with their writes at a load that follows the run, not a clock.
 */
export class SuitePacer {
  /** The writers' tokens: their own requests release nobody. */
  readonly writerTokens = new Set<string>();
  #waiting: (() => void)[] = [];
  #stopped = false;

  get stopped(): boolean {
    return this.#stopped;
  }

  /** Follows the suite's requests to `s` (again after a restart: call it on the new server). */
  follow<S extends { readonly server: Server }>(s: S): S {
    const bySuite = (req: IncomingMessage) => !this.writerTokens.has(String(req.headers.authorization ?? '').replace(/^Bearer /, ''));
    s.server.on('request', (req: IncomingMessage) => bySuite(req) && this.#release());
    s.server.on('upgrade', (req: IncomingMessage) => bySuite(req) && this.#release());
    return s;
  }

  /** Resolves at the suite's next request, or at once when the pacer has stopped. */
  next(): Promise<void> {
    return this.#stopped ? Promise.resolve() : new Promise((resolve) => this.#waiting.push(resolve));
  }

  /** Stops pacing: every waiting writer is released and none waits again. */
  stop(): void {
    this.#stopped = true;
    this.#release();
  }

  #release(): void {
    const now = this.#waiting;
    this.#waiting = [];
    for (const w of now) w();
  }
}
