import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../server/index.js';
import { isolatedDirs, simjob } from '../helpers/cli.js';

/**
 * A minimal proxy: CONNECT tunnels (what undici uses, for http and https targets alike) and absolute-URI forwarding,
 * recording what it relayed.
 */
function forwardProxy(): Promise<{ url: string; seen: string[]; close: () => void }> {
  const seen: string[] = [];
  const proxy = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const target = new URL(req.url ?? '');
    const upstream = http.request(target, { method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  proxy.on('connect', (req, client, head) => {
    seen.push(`CONNECT ${req.url}`);
    const [host, port] = (req.url ?? '').split(':');
    const upstream = net.connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  return new Promise((resolve) => {
    proxy.listen(0, '127.0.0.1', () => {
      const { port } = proxy.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, seen, close: () => proxy.close() });
    });
  });
}

let server: TestServer;
let proxy: Awaited<ReturnType<typeof forwardProxy>>;
beforeAll(async () => {
  server = await startServer();
  proxy = await forwardProxy();
});
afterAll(async () => {
  proxy.close();
  await server.close();
});

describe('HTTP(S)_PROXY', () => {
  it('sends API requests through the proxy when one is configured', async () => {
    const env = { ...isolatedDirs(), SIMJOB_BASE_URL: server.url, SIMJOB_API_KEY: 'sk_test_good', HTTP_PROXY: proxy.url };
    const result = await simjob(['usage', '--json'], { env });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout).limits).toBeDefined();
    expect(proxy.seen).toContain(`CONNECT ${new URL(server.url).host}`);
  });

  it('goes direct without one', async () => {
    const before = proxy.seen.length;
    const env = { ...isolatedDirs(), SIMJOB_BASE_URL: server.url, SIMJOB_API_KEY: 'sk_test_good' };
    expect((await simjob(['usage'], { env })).exitCode).toBe(0);
    expect(proxy.seen.length).toBe(before);
  });
});
