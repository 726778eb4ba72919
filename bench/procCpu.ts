/** CPU time of processes and their threads from /proc (Linux; undefined or empty elsewhere). */
import { readdirSync, readFileSync } from 'node:fs';

/** CPU ms (user + system) a process or one of its threads has used, from its `stat` file. */
export function cpuMs(stat: string): number | undefined {
  try {
    const f = readFileSync(stat, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12])) * 10; // USER_HZ = 100
  } catch {
    return undefined;
  }
}

/** CPU ms of each thread of process `pid` (default this one) by thread id, with its name (`main` for the process's own). */
export function threadCpuMs(pid: number = process.pid): Map<string, { name: string; ms: number }> {
  const out = new Map<string, { name: string; ms: number }>();
  let tids: string[] = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    const ms = cpuMs(`/proc/${pid}/task/${tid}/stat`);
    let name = '?';
    try {
      name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
    } catch { /* the thread ended */ }
    if (ms !== undefined) out.set(tid, { name: tid === String(pid) ? 'main' : name, ms });
  }
  return out;
}

/** CPU ms per unit of work of each thread between two readings, by name (or by name and id with `byThread`). */
export function perThreadSince(before: Map<string, { name: string; ms: number }>, after: Map<string, { name: string; ms: number }>, units: number, byThread = false): Record<string, number> {
  const perThread: Record<string, number> = {};
  for (const [tid, t] of after) {
    const used = t.ms - (before.get(tid)?.ms ?? 0);
    const name = byThread ? `${t.name}-${tid}` : t.name;
    if (used > 0) perThread[name] = +((perThread[name] ?? 0) + used / units).toFixed(3);
  }
  return perThread;
}
