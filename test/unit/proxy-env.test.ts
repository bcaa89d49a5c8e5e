import { describe, expect, it } from 'vitest';
import { proxyFor } from '../../src/core/api/proxy-env.js';

const api = new URL('https://api.example.com/v1/sim/usage');
const local = new URL('http://127.0.0.1:48123/v1/sim/usage');

describe('the proxy a request goes through (as curl and undici pick it)', () => {
  it('none without proxy variables', () => {
    expect(proxyFor(api, {})).toBeUndefined();
  });

  it('https: HTTPS_PROXY, else HTTP_PROXY; http: HTTP_PROXY only; lower case first', () => {
    expect(proxyFor(api, { HTTPS_PROXY: 'http://secure:3128', HTTP_PROXY: 'http://plain:8080' })).toEqual({
      variable: 'HTTPS_PROXY',
      host: 'secure:3128',
      hostname: 'secure',
    });
    expect(proxyFor(api, { HTTP_PROXY: 'http://plain:8080' })?.variable).toBe('HTTP_PROXY');
    expect(proxyFor(local, { HTTPS_PROXY: 'http://secure:3128' })).toBeUndefined();
    expect(proxyFor(local, { http_proxy: 'http://lower:1', HTTP_PROXY: 'http://upper:2' })?.host).toBe('lower:1');
    // an empty lower-case variable wins and means no proxy, as in undici
    expect(proxyFor(local, { http_proxy: '', HTTP_PROXY: 'http://upper:2' })).toBeUndefined();
  });

  it('shows host and port only, never credentials', () => {
    const proxy = proxyFor(api, { HTTPS_PROXY: 'http://user:s3cret@proxy.corp:3128' });
    expect(proxy).toEqual({ variable: 'HTTPS_PROXY', host: 'proxy.corp:3128', hostname: 'proxy.corp' });
    expect(JSON.stringify(proxy)).not.toContain('s3cret');
  });

  it('NO_PROXY: host, parent domain, *. and . prefixes, host:port, and *', () => {
    const env = { HTTPS_PROXY: 'http://p:1', HTTP_PROXY: 'http://p:1' };
    expect(proxyFor(api, { ...env, NO_PROXY: 'api.example.com' })).toBeUndefined();
    expect(proxyFor(api, { ...env, NO_PROXY: 'other.org, example.com' })).toBeUndefined();
    expect(proxyFor(api, { ...env, NO_PROXY: '*.example.com' })).toBeUndefined();
    expect(proxyFor(api, { ...env, no_proxy: '.example.com' })).toBeUndefined();
    expect(proxyFor(api, { ...env, NO_PROXY: 'api.example.com:443' })).toBeUndefined();
    expect(proxyFor(api, { ...env, NO_PROXY: 'api.example.com:8443' })?.host).toBe('p:1');
    expect(proxyFor(api, { ...env, NO_PROXY: 'ample.com' })?.host).toBe('p:1');
    expect(proxyFor(local, { ...env, NO_PROXY: '*' })).toBeUndefined();
    expect(proxyFor(local, { ...env, NO_PROXY: '127.0.0.1' })).toBeUndefined();
  });
});
