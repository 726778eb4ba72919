export interface StreamTiming {
  readonly status: number;
  /** From sending the request to the first body byte. */
  readonly firstByteMs: number;
  /** From sending the request to the last body byte. */
  readonly totalMs: number;
  readonly bytes: number;
  /** The body, for counting elements after the clock stopped. */
  readonly text: string;
}

/** POSTs a JSON body and times the response as it streams in. */
export async function measureStream(url: string, body: unknown): Promise<StreamTiming> {
  const t0 = performance.now();
  const response = await fetch(url, { method: 'POST', body: JSON.stringify(body) });
  const reader = response.body?.getReader();
  if (reader === undefined) throw new Error('no response body');
  const decoder = new TextDecoder();
  let firstByteMs = -1;
  let bytes = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (firstByteMs < 0) firstByteMs = performance.now() - t0;
    bytes += value.byteLength;
    text += decoder.decode(value, { stream: true });
  }
  return { status: response.status, firstByteMs, totalMs: performance.now() - t0, bytes, text: text + decoder.decode() };
}
