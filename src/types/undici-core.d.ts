// Types for the undici modules the proxy transport loads directly (src/api/transport-proxy.ts): the package's main
// entry would also load fetch, WebSocket and the cache, which the CLI never uses.
declare module 'undici/lib/api/index.js' {
  import type { request, stream } from 'undici';
  const api: { request: typeof request; stream: typeof stream };
  export default api;
}
declare module 'undici/lib/dispatcher/env-http-proxy-agent.js' {
  import { EnvHttpProxyAgent } from 'undici';
  export default EnvHttpProxyAgent;
}
