import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: Buffer;
  method: string;
  path: string;
}

/**
 * A webhook receiver for tests: answers each request with the next scripted status (the last one repeats);
 * 'hang' never answers. Records every request as received, raw body included.
 */
export async function scriptedReceiver(script: Array<number | 'hang'>) {
  const requests: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({
        headers: req.headers,
        body: Buffer.concat(chunks),
        method: req.method ?? '',
        path: req.url ?? '',
      });
      const step = script[Math.min(requests.length, script.length) - 1] ?? 200;
      if (step === 'hang') return;
      res.writeHead(step, { 'content-type': 'text/plain' });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
