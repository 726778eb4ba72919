/**
 * Tokens that verified recently, so a client sending the same token on every request pays for
 * the signature check once. Bounded (oldest entry evicted first) and never outlives the token's
 * `exp`; entries also expire after `maxAgeMs` so a key removed from a JWKS stops being honoured
 * soon after. Only the user id is kept: rights are read from the user store on every request.
 */
/** What a verified token stands for. */
export interface VerifiedToken {
  readonly userId: string;
  readonly expSeconds: number | undefined;
  readonly identityProviderId?: string;
}

export class VerifiedTokenCache {
  readonly #entries = new Map<string, VerifiedToken & { readonly expiresAtMs: number }>();

  constructor(
    readonly maxEntries: number,
    readonly maxAgeMs: number,
  ) {}

  get(token: string, nowMs: number): string | undefined {
    return this.lookup(token, nowMs)?.userId;
  }

  /** The user id, the token's `exp` claim (seconds) and its identity provider, while the entry is fresh. */
  lookup(token: string, nowMs: number): VerifiedToken | undefined {
    const entry = this.#entries.get(token);
    if (entry === undefined) return undefined;
    if (entry.expiresAtMs <= nowMs) {
      this.#entries.delete(token);
      return undefined;
    }
    return entry;
  }

  /** `expSeconds` is the token's `exp` claim, when it has one; `identityProviderId` the one whose issuer signed it, if not the participant's own key. */
  put(token: string, userId: string, nowMs: number, expSeconds: number | undefined, identityProviderId?: string): void {
    if (this.maxEntries <= 0) return;
    const expiresAtMs = Math.min(nowMs + this.maxAgeMs, expSeconds === undefined ? Number.POSITIVE_INFINITY : expSeconds * 1000);
    if (expiresAtMs <= nowMs) return;
    this.#entries.delete(token);
    while (this.#entries.size >= this.maxEntries) {
      const oldest = this.#entries.keys().next();
      if (oldest.done === true) break;
      this.#entries.delete(oldest.value);
    }
    this.#entries.set(token, { userId, expiresAtMs, expSeconds, ...(identityProviderId === undefined ? {} : { identityProviderId }) });
  }

  get size(): number {
    return this.#entries.size;
  }
}
