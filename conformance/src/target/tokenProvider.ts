import { exec } from 'node:child_process';
import { readFile } from 'node:fs/promises';

/** Where the run's bearer token comes from. `refresh` is called once after a 401 and the request retried. */
export interface TokenProvider {
  /** A short description for logs and the report (never the token). */
  readonly describe: string;
  token(): Promise<string>;
  /** A fresh token, or undefined when this source cannot produce another one. */
  refresh(): Promise<string | undefined>;
}

/** A token that fails to load is a configuration problem (exit 2), not a target failure. */
export class TokenSourceError extends Error {
  override readonly name = 'TokenSourceError';
}

export function staticToken(token: string): TokenProvider {
  const t = token.trim();
  if (t === '') throw new TokenSourceError('--token is empty');
  return { describe: 'static token (--token)', token: () => Promise.resolve(t), refresh: () => Promise.resolve(undefined) };
}

/** A token file is re-read on refresh: a sidecar that rotates it keeps a long run going. */
export function tokenFile(path: string): TokenProvider {
  let current: string | undefined;
  const load = async (): Promise<string> => {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (e) {
      throw new TokenSourceError(`cannot read token file ${path}: ${(e as Error).message}`);
    }
    const t = text.trim();
    if (t === '') throw new TokenSourceError(`token file ${path} is empty`);
    return t;
  };
  return {
    describe: `token file ${path}`,
    token: async () => (current ??= await load()),
    refresh: async () => {
      const next = await load();
      const changed = next !== current;
      current = next;
      return changed ? next : undefined;
    },
  };
}

/**
 * A command (from the profile) that prints a fresh token on stdout, e.g. a client-credentials
 * fetch. Run at start and again after a 401; concurrent refreshes share one execution.
 */
export function tokenCommand(command: string, timeoutMs = 30_000): TokenProvider {
  let current: Promise<string> | undefined;
  const runOnce = () =>
    new Promise<string>((resolve, reject) => {
      exec(command, { timeout: timeoutMs, maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
        if (error) {
          reject(new TokenSourceError(`token command failed (${error.message.split('\n')[0]})${stderr ? `: ${stderr.trim().slice(0, 300)}` : ''}`));
          return;
        }
        const t = stdout.trim().split('\n').pop()?.trim() ?? '';
        if (t === '') reject(new TokenSourceError('token command printed nothing'));
        else resolve(t);
      });
    });
  let refreshing: Promise<string> | undefined;
  return {
    describe: `token command \`${command}\``,
    token: () => (current ??= runOnce()),
    refresh: async () => {
      refreshing ??= runOnce().finally(() => (refreshing = undefined));
      const next = await refreshing;
      current = Promise.resolve(next);
      return next;
    },
  };
}
