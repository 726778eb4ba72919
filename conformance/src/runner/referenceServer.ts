/** What `run` needs from the reference server when it certifies it in-process. */
export interface InProcessServer {
  readonly url: string;
  close(): Promise<void>;
}

interface StartModule {
  startReferenceServer(options: { port: number; host: string; fixtures: string | undefined }): Promise<InProcessServer>;
}

/**
 * Starts the reference server on a free loopback port. Loaded dynamically: the suite itself talks
 * HTTP only, and a build without the reference server still certifies remote targets.
 */
export async function startInProcessReference(): Promise<InProcessServer> {
  const mod = (await import('../../../reference-server/src/startReferenceServer.js')) as unknown as StartModule;
  return mod.startReferenceServer({ port: 0, host: '127.0.0.1', fixtures: undefined });
}
