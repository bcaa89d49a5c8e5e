/**
 * Pooled connections to close before the process ends (keep-alive sockets would hold it open). transport.ts
 * registers its closer when it first opens a pool; the CLI calls `closeConnections` on the way out. Kept free of
 * imports so commands that never touch the network do not load the API client (and node:net) just to close nothing.
 */
let closer: (() => Promise<void>) | undefined;

export function onCloseConnections(close: () => Promise<void>): void {
  closer = close;
}

export async function closeConnections(): Promise<void> {
  const close = closer;
  closer = undefined;
  await close?.();
}
