import { WebSocket as NodeWebSocket } from 'ws';

/**
 * Node 20 has no global WebSocket, and the real WebSocketClient uses the global one: install the
 * `ws` implementation as it, before msw patches globals (msw intercepts only what it finds).
 */
export function installWebSocket(): void {
  const g = globalThis as { WebSocket?: unknown };
  g.WebSocket ??= NodeWebSocket;
}
