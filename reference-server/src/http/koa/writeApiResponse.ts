import { Readable } from 'node:stream';
import type { Context } from 'koa';
import { jsonArrayChunks } from '../api/streams/jsonArrayChunks.js';
import type { ApiResponse } from '../api/types.js';

/** Writes an adapter-neutral response to Koa. Content types are set before the body so Koa keeps them. */
export function writeApiResponse(ctx: Context, response: ApiResponse, onStreamError: (e: unknown) => void): void {
  ctx.status = response.status;
  switch (response.kind) {
    case 'json':
      ctx.set('Content-Type', 'application/json');
      ctx.body = JSON.stringify(response.body);
      return;
    case 'text':
      ctx.set('Content-Type', response.contentType);
      ctx.body = response.body;
      return;
    case 'bytes':
      ctx.set('Content-Type', response.contentType);
      for (const [name, value] of Object.entries(response.headers)) ctx.set(name, value);
      ctx.body = Buffer.from(response.body.buffer, response.body.byteOffset, response.body.byteLength);
      return;
    case 'empty':
      // Koa turns a 200 without body into 204; an explicit empty string keeps the status.
      ctx.body = '';
      ctx.remove('Content-Type');
      return;
    case 'stream': {
      ctx.set('Content-Type', 'application/json');
      const stream = Readable.from(jsonArrayChunks(response.elements), { objectMode: false });
      // Once the status line is out an error can only cut the response short; say why in the log.
      // A client that hangs up mid-stream is not a failure of ours: depending on when the close is
      // seen, the body ends quietly or with ERR_STREAM_PREMATURE_CLOSE (the latter on a busy machine).
      stream.on('error', (e: unknown) => {
        if (ctx.res.destroyed || (e as { code?: unknown }).code === 'ERR_STREAM_PREMATURE_CLOSE') return;
        onStreamError(e);
      });
      ctx.body = stream;
      return;
    }
  }
}
