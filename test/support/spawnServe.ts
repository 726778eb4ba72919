import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach } from 'vitest';

/** The published CLI (from dist/: `npm run build`), run as a child so a test can kill it the hard way. */
const bin = new URL('../../bin/canton-conformance.js', import.meta.url).pathname;

export interface ServedChild {
  readonly child: ChildProcess;
  readonly url: string;
  stderr(): string;
}

/**
 * `canton-conformance serve ARGS` on a free port: resolves with its URL once it listens, rejects
 * with its stderr if it exits first. The child joins `children`, for the test's cleanup to kill.
 */
export function spawnServe(args: readonly string[], children: Set<ChildProcess>): Promise<ServedChild> {
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let out = '';
  let err = '';
  child.stderr?.on('data', (d: Buffer) => void (err += d.toString()));
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (url) resolve({ child, url, stderr: () => err });
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
  });
}

/** The set a test file's `serve` children join, each killed (SIGKILL) after every test. */
export function childrenKilledAfterEach(): Set<ChildProcess> {
  const children = new Set<ChildProcess>();
  afterEach(() => {
    for (const c of children) c.kill('SIGKILL');
    children.clear();
  });
  return children;
}
