import http from 'node:http';
import net, { type AddressInfo } from 'node:net';

/**
 * A minimal proxy: CONNECT tunnels (what simjob's proxy agent uses, for http and https targets alike) and
 * absolute-URI forwarding, recording what it relayed.
 */
export function forwardProxy(): Promise<{ url: string; seen: string[]; close: () => void }> {
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
    let tunnelled = false;
    const upstream = net.connect(Number(port), host, () => {
      tunnelled = true;
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    // A target it cannot reach: a 502, as real proxies answer.
    upstream.on('error', () => (!tunnelled ? client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n') : client.destroy()));
    client.on('error', () => upstream.destroy());
  });
  return new Promise((resolve) => {
    proxy.listen(0, '127.0.0.1', () => {
      const { port } = proxy.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, seen, close: () => proxy.close() });
    });
  });
}

/** A proxy that accepts each CONNECT and closes it unanswered (one that does not tunnel): counts the attempts. */
export function droppingProxy(): Promise<{ url: string; connects: () => number; close: () => void }> {
  let connects = 0;
  const proxy = http.createServer((_req, res) => res.destroy());
  proxy.on('connect', (_req, client) => {
    connects++;
    client.destroy();
  });
  return new Promise((resolve) => {
    proxy.listen(0, '127.0.0.1', () => {
      const { port } = proxy.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, connects: () => connects, close: () => proxy.close() });
    });
  });
}
