/**
 * Messages between the apps benchmark driver (apps-run.ts) and its servers, beside the HTTP
 * harness's own protocol (servers/protocol.ts), whose ServerProcess carries them.
 */
import type { DriverMessage, ServerMessage } from './servers/protocol.js';
import type { ServerProcess } from './servers/ServerProcess.js';

export type AppsDriverMessage =
  /**
   * Creates `count` preapprovals, `perReceiver` for each receiver `r0000000`... (distinct validFrom,
   * so the lookup must pick the newest), in submissions of `perCommand`.
   */
  | { readonly cmd: 'seed-preapprovals'; readonly count: number; readonly perReceiver: number; readonly perCommand: number }
  /** Creates the registry (rules, account map) and `count` allocation instructions for one authorizer. */
  | { readonly cmd: 'seed-instructions'; readonly count: number; readonly perCommand: number }
  /** Bare Koa: the bodies to answer with. */
  | { readonly cmd: 'bodies'; readonly preapproval: string; readonly acceptContext: string }
  /** CPU time the server process has used so far (user + system). */
  | { readonly cmd: 'cpu' }
  | { readonly cmd: 'exit' };

export type AppsServerMessage =
  | { readonly kind: 'seeded-preapprovals'; readonly ms: number; readonly receivers: readonly string[]; readonly heapMb: number; readonly rssMb: number }
  | { readonly kind: 'seeded-instructions'; readonly ms: number; readonly instructionIds: readonly string[] }
  | { readonly kind: 'bodies-set' }
  | { readonly kind: 'cpu'; readonly ms: number }
  | { readonly kind: 'error'; readonly message: string };

/** Sends one of our messages through the harness's ServerProcess (its types name only its own). */
export function askApps<K extends AppsServerMessage['kind']>(server: ServerProcess, message: AppsDriverMessage, kind: K): Promise<Extract<AppsServerMessage, { kind: K }>> {
  return server.ask(message as unknown as DriverMessage, kind as unknown as ServerMessage['kind']) as unknown as Promise<Extract<AppsServerMessage, { kind: K }>>;
}

/** The process's CPU time in ms: what a request costs, whatever else runs on a shared machine. */
export function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
