/** Messages between the benchmark driver and a server it forked (Node IPC). */
export type DriverMessage =
  | { readonly cmd: 'parties'; readonly hints: readonly string[] }
  | { readonly cmd: 'seed'; readonly issuer: string; readonly owner: string; readonly contracts: number; readonly perCommand: number }
  | { readonly cmd: 'memory' }
  | { readonly cmd: 'sample-start' }
  | { readonly cmd: 'sample-stop' }
  | { readonly cmd: 'exit' };

export interface MemorySnapshot {
  readonly rssMb: number;
  readonly heapUsedMb: number;
}

export type ServerMessage =
  /** `startMs`: how long the server took to get its ledger ready (durable store: open and replay). */
  | { readonly kind: 'ready'; readonly url: string; readonly startMs?: number }
  | { readonly kind: 'parties'; readonly parties: readonly string[] }
  | { readonly kind: 'seeded'; readonly ms: number; readonly ledgerEnd: number }
  | { readonly kind: 'memory'; readonly memory: MemorySnapshot }
  /** Peak during a sampled interval, with what it started from (after a GC). */
  | { readonly kind: 'sample'; readonly start: MemorySnapshot; readonly peak: MemorySnapshot }
  | { readonly kind: 'error'; readonly message: string };

const MB = 1024 * 1024;

export function memoryNow(collect: boolean): MemorySnapshot {
  if (collect) (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  return { rssMb: Math.round(m.rss / MB), heapUsedMb: Math.round(m.heapUsed / MB) };
}
