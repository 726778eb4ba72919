/**
 * Tokens that verified recently, so a client sending the same token on every request pays for
 * the signature check once. Bounded (oldest entry evicted first) and never outlives the token's
 * `exp`; entries also expire after `maxAgeMs` so a key removed from a JWKS stops being honoured
 * soon after. Only the user id is kept: rights are read from the user store on every request.
 */
export class VerifiedTokenCache {
  readonly #entries = new Map<string, { readonly userId: string; readonly expiresAtMs: number; readonly expSeconds: number | undefined }>();

  constructor(
    readonly maxEntries: number,
    readonly maxAgeMs: number,
  ) {}

  get(token: string, nowMs: number): string | undefined {
    return this.lookup(token, nowMs)?.userId;
  }

  /** The user id and the token's `exp` claim (seconds), while the entry is fresh. */
  lookup(token: string, nowMs: number): { readonly userId: string; readonly expSeconds: number | undefined } | undefined {
    const entry = this.#entries.get(token);
    if (entry === undefined) return undefined;
    if (entry.expiresAtMs <= nowMs) {
      this.#entries.delete(token);
      return undefined;
    }
    return entry;
  }

  /** `expSeconds` is the token's `exp` claim, when it has one. */
  put(token: string, userId: string, nowMs: number, expSeconds: number | undefined): void {
    if (this.maxEntries <= 0) return;
    const expiresAtMs = Math.min(nowMs + this.maxAgeMs, expSeconds === undefined ? Number.POSITIVE_INFINITY : expSeconds * 1000);
    if (expiresAtMs <= nowMs) return;
    this.#entries.delete(token);
    while (this.#entries.size >= this.maxEntries) {
      const oldest = this.#entries.keys().next();
      if (oldest.done === true) break;
      this.#entries.delete(oldest.value);
    }
    this.#entries.set(token, { userId, expiresAtMs, expSeconds });
  }

  get size(): number {
    return this.#entries.size;
  }
}
