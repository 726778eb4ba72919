import type { IncomingMessage } from 'node:http';

export type BodyRead =
  | { readonly ok: true; readonly text: string | undefined }
  | { readonly ok: false; readonly tooLarge: true }
  /** The client went away before the body ended: there is no one to answer. */
  | { readonly ok: false; readonly tooLarge: false };

/**
 * Reads a request body as UTF-8 text, refusing it as soon as it passes `maxBytes` (a declared
 * Content-Length over the limit is refused before a byte is read). The rest of a refused body is
 * drained, so the 413 answer reaches the client.
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<BodyRead> {
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
      resolve({ ok: true, text: size === 0 ? undefined : Buffer.concat(chunks, size).toString('utf8') });
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
