/**
 * `--catalog https://…`: fetched once and kept with its ETag; a later run asks If-None-Match and reads the kept
 * copy on 304 or when offline; plain http is refused; an answer over the API's size cap is refused. The network is
 * undici's MockAgent (no socket is opened).
 */
import { existsSync, readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getGlobalDispatcher, MockAgent, setGlobalDispatcher, type Dispatcher } from 'undici';
import { MAX_ANSWER_BYTES } from '../../../src/api/http.js';
import { catalogCacheFile, fetchCatalogText } from '../../../src/droptimizer/fetch.js';
import { tempDir } from '../../helpers/temp.js';

const ORIGIN = 'https://catalogs.example.test';
let agent: MockAgent;
let previous: Dispatcher;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  previous = getGlobalDispatcher();
  agent = new MockAgent();
  agent.disableNetConnect();
  setGlobalDispatcher(agent);
  env = { SIMJOB_CACHE_DIR: tempDir('simjob-catalog-cache-') };
});
afterEach(async () => {
  setGlobalDispatcher(previous);
  await agent.close();
});

describe('--catalog URL', () => {
  it('is fetched once, then asked with If-None-Match and read from the cache on 304', async () => {
    const pool = agent.get(ORIGIN);
    pool.intercept({ path: '/s2.json', method: 'GET' }).reply(200, '{"season":"s2"}', { headers: { etag: '"v1"' } });
    expect(await fetchCatalogText(`${ORIGIN}/s2.json`, { env })).toBe('{"season":"s2"}');
    const file = catalogCacheFile(`${ORIGIN}/s2.json`, env);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ etag: '"v1"', text: '{"season":"s2"}' });

    let asked: unknown;
    pool
      .intercept({ path: '/s2.json', method: 'GET', headers: (h) => ((asked = h['if-none-match']), true) })
      .reply(304, '');
    expect(await fetchCatalogText(`${ORIGIN}/s2.json`, { env })).toBe('{"season":"s2"}');
    expect(asked).toBe('"v1"');

    pool.intercept({ path: '/s2.json', method: 'GET' }).replyWithError(new Error('offline'));
    expect(await fetchCatalogText(`${ORIGIN}/s2.json`, { env })).toBe('{"season":"s2"}');
  });

  it('refuses http, a failed answer and one over the size cap of an API answer', async () => {
    await expect(fetchCatalogText('http://catalogs.example.test/s2.json', { env })).rejects.toThrow(
      'only https URLs are fetched',
    );
    const pool = agent.get(ORIGIN);
    pool.intercept({ path: '/missing.json', method: 'GET' }).reply(404, 'no');
    await expect(fetchCatalogText(`${ORIGIN}/missing.json`, { env })).rejects.toThrow(
      `The catalog ${ORIGIN}/missing.json answered 404.`,
    );
    pool.intercept({ path: '/huge.json', method: 'GET' }).reply(200, Buffer.alloc(MAX_ANSWER_BYTES + 1, 0x20));
    await expect(fetchCatalogText(`${ORIGIN}/huge.json`, { env })).rejects.toThrow('larger than 16 MB');
    expect(existsSync(catalogCacheFile(`${ORIGIN}/huge.json`, env))).toBe(false);
  });
});
