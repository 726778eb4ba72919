import type { Response } from 'supertest';
import type { TestServer } from './startServer.js';
import { expectConforms } from './conforms.js';

export interface SendOptions {
  /** A raw body (sent as is, no Content-Type unless given); objects are sent as JSON. */
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** Skip spec validation (for paths the spec does not describe). */
  readonly unchecked?: boolean;
}

/**
 * Sends a request and checks the response against the spec before returning it. Bodies go out
 * without Content-Type, as the real ledger client sends them, unless a header says otherwise.
 */
export async function send(server: TestServer, method: string, path: string, options: SendOptions = {}): Promise<Response> {
  let req = server.http[method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete' | 'put'](path);
  for (const [name, value] of Object.entries(options.headers ?? {})) req = req.set(name, value);
  if (options.body !== undefined) {
    const text = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    req = req.send(Buffer.from(text, 'utf8'));
  }
  const res = await req;
  if (options.unchecked !== true) expectConforms(res, method, path);
  return res;
}

export const get = (s: TestServer, path: string, o?: SendOptions) => send(s, 'GET', path, o);
export const post = (s: TestServer, path: string, body: unknown, o?: SendOptions) => send(s, 'POST', path, { ...o, body });
export const patch = (s: TestServer, path: string, body: unknown, o?: SendOptions) => send(s, 'PATCH', path, { ...o, body });
export const del = (s: TestServer, path: string, o?: SendOptions) => send(s, 'DELETE', path, o);
