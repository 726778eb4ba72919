import { Agent } from 'node:http';
import { keepAlivePost } from './keepAlivePost.js';

/**
 * The frame of a bench process that plays wallets (splice-wallets.ts, splice-external-wallets.ts):
 * a keep-alive agent with a socket per wallet, then `report` runs each wallet on its starting
 * holding and sends the parent how many transfers were made, in how long, at what CPU, and each
 * wallet's last holding.
 */
export function walletsProcess(url: string, wallets: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: wallets });
  return {
    post: keepAlivePost(agent, url),
    async report(inputs: readonly string[], perWallet: number, wallet: (start: string, w: number) => Promise<string>): Promise<void> {
      const t0 = performance.now();
      const cpu0 = process.cpuUsage();
      const last = await Promise.all(inputs.map((input, w) => wallet(input, w)));
      agent.destroy();
      const cpu = process.cpuUsage(cpu0);
      process.send?.({ done: inputs.length * perWallet, ms: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000, last }, () => process.disconnect());
    },
  };
}
