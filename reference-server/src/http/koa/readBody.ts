import type { IncomingMessage } from 'node:http';

export type BodyRead =
  | { readonly ok: true; readonly text: string | undefined; readonly bytes: Uint8Array | undefined }
  | { readonly ok: false; readonly tooLarge: true }
  /** The client went away before the body ended: there is no one to answer. */
  | { readonly ok: false; readonly tooLarge: false };

/**
 * Reads a request body as UTF-8 text (or raw bytes, for binary uploads), refusing it as soon as it passes `maxBytes` (a declared
 * Content-Length over the limit is refused before a byte is read). The rest of a refused body is
 * drained, so the 413 answer reaches the client.
 */
export function readBody(req: IncomingMessage, maxBytes: number, as: 'text' | 'bytes' = 'text'): Promise<BodyRead> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    req.resume();
    return Promise.resolve({ ok: false, tooLarge: true });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        cleanup();
        req.resume();
        resolve({ ok: false, tooLarge: true });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      if (size === 0) return resolve({ ok: true, text: undefined, bytes: undefined });
      const all = Buffer.concat(chunks, size);
      // Binary uploads (DARs) stay bytes; decoding them as UTF-8 would corrupt them.
      resolve(as === 'bytes' ? { ok: true, text: undefined, bytes: all } : { ok: true, text: all.toString('utf8'), bytes: undefined });
    };
    const onGone = () => {
      cleanup();
      resolve({ ok: false, tooLarge: false });
    };
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onGone);
      req.off('close', onGone);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    // An aborted upload errors or just closes, depending on when the client left.
    req.on('error', onGone);
    req.on('close', onGone);
  });
}
