import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { DriverMessage, ServerMessage } from './protocol.js';

/** A benchmark server in a child process (its own core and heap), driven over IPC. */
export class ServerProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
    /** What the server reported about its start (ms to get its ledger ready), if anything. */
    readonly startMs?: number,
  ) {}

  /** Forks `servers/<name>.js` (compiled next to this file) and waits for its URL. */
  static start(name: string, execArgv: string[] = []): Promise<ServerProcess> {
    const script = fileURLToPath(new URL(`./${name}.js`, import.meta.url));
    const child = fork(script, [], { execArgv: ['--expose-gc', ...execArgv], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    return new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`${name} exited with ${code} before it was ready`)));
      child.once('message', (m: ServerMessage) => {
        if (m.kind === 'ready') resolve(new ServerProcess(child, m.url, m.startMs));
        else reject(new Error(`${name}: unexpected first message ${JSON.stringify(m)}`));
      });
    });
  }

  /** Sends a command and waits for the answer of the given kind. */
  ask<K extends ServerMessage['kind']>(message: DriverMessage, kind: K): Promise<Extract<ServerMessage, { kind: K }>> {
    return new Promise((resolve, reject) => {
      const onMessage = (m: ServerMessage) => {
        if (m.kind === 'error') {
          this.child.off('message', onMessage);
          reject(new Error(m.message));
        } else if (m.kind === kind) {
          this.child.off('message', onMessage);
          resolve(m as Extract<ServerMessage, { kind: K }>);
        }
      };
      this.child.on('message', onMessage);
      this.child.send(message);
    });
  }

  /** Ends the server the hard way (SIGKILL), as a crash would. */
  kill(): Promise<void> {
    return new Promise((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.kill('SIGKILL');
    });
  }

  stop(): Promise<void> {
    return new Promise((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.send({ cmd: 'exit' } satisfies DriverMessage);
      setTimeout(() => this.child.kill('SIGKILL'), 5000).unref();
    });
  }
}
