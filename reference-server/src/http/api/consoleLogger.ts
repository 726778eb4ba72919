import type { ApiLogger } from './services.js';

/** Logs to stderr: the server's stdout carries only its one "listening" line. */
export const consoleLogger: ApiLogger = {
  error: (message, cause) => console.error(`[canton-conformance] ${message}`, ...(cause === undefined ? [] : [cause])),
  warn: (message) => console.error(`[canton-conformance] ${message}`),
  info: (message) => console.error(`[canton-conformance] ${message}`),
};

/** For tests and benchmarks that assert on failures rather than read them. */
export const silentLogger: ApiLogger = { error: () => undefined, warn: () => undefined, info: () => undefined };
