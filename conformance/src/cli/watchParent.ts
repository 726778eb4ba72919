import { readFileSync } from 'node:fs';

/**
 * Calls `onGone` once the process that started this one has exited. npm runs a script or an
 * `npx` bin through `sh -c`, and forwards SIGTERM/SIGINT to that shell only; the shell ends
 * without passing the signal on, and the server it started would stay listening, adopted by
 * PID 1. Watching the parent closes that gap. The timer is unref'd: it never keeps the process
 * alive on its own. Returns a function that stops watching.
 */
export function watchParent(onGone: () => void, intervalMs = 250): () => void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (currentParent() === parent) return;
    clearInterval(timer);
    onGone();
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** The live parent pid: Node's `process.ppid` is read once at start-up. */
function currentParent(): number | undefined {
  try {
    // Linux: the 4th field of /proc/self/stat, after the parenthesised command name.
    const stat = readFileSync('/proc/self/stat', 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    // Elsewhere: signal 0 probes whether the original parent still exists.
    try {
      process.kill(process.ppid, 0);
      return process.ppid;
    } catch {
      return undefined;
    }
  }
}

/** Started by npm (`npm start`, `npm run`, `npx`): npm sets this for every script and bin it runs. */
export function startedByNpm(env: NodeJS.ProcessEnv = process.env): boolean {
  return env['npm_lifecycle_event'] !== undefined;
}
