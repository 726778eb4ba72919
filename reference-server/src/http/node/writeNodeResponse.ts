import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline, Readable } from 'node:stream';
import { jsonArrayChunks } from '../api/streams/jsonArrayChunks.js';
import type { ApiResponse } from '../api/types.js';

/**
 * Writes an adapter-neutral response to Node's response object, with the headers Koa wrote for it:
 * Content-Type and Content-Length for whole bodies (only Content-Length, 0, for `empty`), chunked
 * JSON for streams, and for HEAD the same headers without a body.
 */
export function writeNodeResponse(req: IncomingMessage, res: ServerResponse, response: ApiResponse, onStreamError: (e: unknown) => void): void {
  // The client is gone (or the answer is already out): there is no one to write to.
  if (res.writableEnded || (res.socket !== null && !res.socket.writable)) {
    res.end();
    return;
  }
  res.statusCode = response.status;
  const head = req.method === 'HEAD';
  switch (response.kind) {
    case 'json':
      return whole(res, 'application/json', JSON.stringify(response.body), head);
    case 'text':
      return whole(res, response.contentType, response.body, head);
    case 'bytes': {
      res.setHeader('Content-Type', response.contentType);
      for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value);
      const body = Buffer.from(response.body.buffer, response.body.byteOffset, response.body.byteLength);
      res.setHeader('Content-Length', body.length);
      if (head) res.end();
      else res.end(body);
      return;
    }
    case 'empty':
      res.setHeader('Content-Length', 0);
      res.end();
      return;
    case 'stream': {
      res.setHeader('Content-Type', 'application/json');
      const stream = Readable.from(jsonArrayChunks(response.elements), { objectMode: false });
      // Once the status line is out an error can only cut the response short; say why in the log.
      // A client that hangs up mid-stream is not a failure of ours: depending on when the close is
      // seen, the body ends quietly or with ERR_STREAM_PREMATURE_CLOSE (the latter on a busy machine).
      stream.on('error', (e: unknown) => {
        if (res.destroyed || (e as { code?: unknown }).code === 'ERR_STREAM_PREMATURE_CLOSE') return;
        onStreamError(e);
      });
      if (head) {
        res.end();
        stream.destroy();
        return;
      }
      // pipeline ends the elements (their iterator's `return`) when the client leaves early.
      pipeline(stream, res, () => undefined);
      return;
    }
  }
}

function whole(res: ServerResponse, contentType: string, body: string, head: boolean): void {
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  if (head) res.end();
  else res.end(body);
}
