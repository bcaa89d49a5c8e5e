/**
 * Pooled connections to close before the process ends, so that it ends at once. transport.ts registers its closer
 * when it first makes an agent; the CLI calls `closeConnections` on the way out. Kept free of imports so commands
 * that never touch the network do not load the API client (and node:http) just to close nothing.
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
