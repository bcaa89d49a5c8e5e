/**
 * Which proxy a request goes through, read from the environment as curl and undici read it: http: URLs through
 * http_proxy / HTTP_PROXY, https: URLs through https_proxy / HTTPS_PROXY and else the HTTP one, unless NO_PROXY names
 * the host (or a parent domain, optionally with a port). transport.ts connects through it; errors name it, and
 * --debug shows it, by host only.
 */
export interface ProxyInUse {
  /** The variable it came from, e.g. HTTPS_PROXY. */
  variable: string;
  /** host:port only: a proxy URL may carry credentials, which are never shown. */
  host: string;
  hostname: string;
}

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

/** The proxy to name to the user: never its credentials. */
export function proxyFor(url: URL, env: NodeJS.ProcessEnv): ProxyInUse | undefined {
  const chosen = proxySetting(url, env);
  if (!chosen) return undefined;
  const proxy = URL.parse(chosen.value);
  if (!proxy || !/^https?:$/.test(proxy.protocol)) {
    return { variable: chosen.variable, host: '(not a URL)', hostname: '(not a URL)' };
  }
  return { variable: chosen.variable, host: proxy.host, hostname: proxy.hostname };
}

/** The proxy to connect through: the variable and its whole value, credentials included (transport.ts only). */
export function proxySetting(url: URL, env: NodeJS.ProcessEnv): { variable: string; value: string } | undefined {
  const http = firstSet(env, ['http_proxy', 'HTTP_PROXY']);
  const chosen = url.protocol === 'https:' ? (firstSet(env, ['https_proxy', 'HTTPS_PROXY']) ?? http) : http;
  return chosen && !bypassed(url, env.no_proxy ?? env.NO_PROXY ?? '') ? chosen : undefined;
}

function firstSet(env: NodeJS.ProcessEnv, names: string[]): { variable: string; value: string } | undefined {
  for (const variable of names) {
    const value = env[variable];
    // The first one defined counts, even an empty one, which then means no proxy (as undici reads them).
    if (value !== undefined) return value ? { variable, value } : undefined;
  }
  return undefined;
}

function bypassed(url: URL, noProxy: string): boolean {
  const entries = noProxy.split(/[,\s]/).filter(Boolean);
  if (entries.length === 0) return false;
  if (noProxy === '*') return true;
  const hostname = url.host.replace(/:\d*$/, '').toLowerCase();
  const port = Number.parseInt(url.port, 10) || DEFAULT_PORTS[url.protocol] || 0;
  return entries.some((entry) => {
    const parsed = /^(.+):(\d+)$/.exec(entry);
    const name = (parsed ? parsed[1]! : entry).replace(/^\*?\./, '').toLowerCase();
    if (parsed && Number(parsed[2]) !== port) return false;
    return hostname === name || hostname.endsWith(`.${name}`);
  });
}
