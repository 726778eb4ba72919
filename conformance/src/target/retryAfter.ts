/**
 * Load shedding: a target (or the ingress in front of it) that answers 429 Too Many Requests or
 * 503 Service Unavailable with a Retry-After header did not process the request and asks for it
 * again after the delay (RFC 6585 section 4, RFC 9110 sections 10.2.3 and 15.6.4). A client
 * repeats it, so the suite does too, a few times, before judging the answer; a refusal without
 * Retry-After (a participant's own UNAVAILABLE, a /readyz that is not ready) is an answer to judge.
 */
export const MAX_REFUSALS = 3;
/** The longest wait the suite honours; a target asking for more is judged on its refusal. */
export const MAX_RETRY_AFTER_MS = 10_000;

/** The delay a refusal asks for, in ms; undefined when the answer is no refusal to repeat, or asks for too long a wait. */
export function retryDelayMs(status: number | undefined, retryAfter: string | null | undefined, now: number = Date.now()): number | undefined {
  if ((status !== 429 && status !== 503) || retryAfter === null || retryAfter === undefined) return undefined;
  const value = retryAfter.trim();
  // delay-seconds, or an HTTP-date (its three forms begin with the day's name; Date.parse alone takes '-1' for a year).
  const ms = /^\d+$/.test(value) ? Number(value) * 1000 : /^[A-Za-z]{3}/.test(value) ? Date.parse(value) - now : Number.NaN;
  if (!Number.isFinite(ms)) return undefined;
  const wait = Math.max(0, ms);
  return wait <= MAX_RETRY_AFTER_MS ? wait : undefined;
}

/**
 * `send` again while its answer is a refusal to repeat (`delayOf`), at most `MAX_REFUSALS` times;
 * the last answer, and the refused ones before it.
 */
export async function withRetryAfter<T>(send: () => Promise<T>, delayOf: (answer: T) => number | undefined): Promise<{ readonly answer: T; readonly refused: readonly T[] }> {
  const refused: T[] = [];
  let answer = await send();
  for (let delay = delayOf(answer); delay !== undefined && refused.length < MAX_REFUSALS; delay = delayOf(answer)) {
    refused.push(answer);
    await new Promise((resolve) => setTimeout(resolve, delay));
    answer = await send();
  }
  return { answer, refused };
}
