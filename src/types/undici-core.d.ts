// Types for the two undici modules the HTTP layer loads directly (see src/api/transport.ts for why).
declare module 'undici/lib/dispatcher/agent.js' {
  import { Agent } from 'undici';
  export default Agent;
}
declare module 'undici/lib/api/index.js' {
  import type { request, stream } from 'undici';
  const api: { request: typeof request; stream: typeof stream };
  export default api;
}
declare module 'undici/lib/dispatcher/env-http-proxy-agent.js' {
  import { EnvHttpProxyAgent } from 'undici';
  export default EnvHttpProxyAgent;
}
