/**
 * `--catalog https://…`: fetched once and kept with its ETag; a later run asks If-None-Match and reads the kept
 * copy on 304 or when offline; plain http is refused; an answer over the API's size cap is refused. The exchange is
 * a stand-in for the HTTP transport (no socket is opened); the size cap is the transport's own, run on a real body.
 */
import { existsSync, readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_ANSWER_BYTES } from '../../../src/core/api/http.js';
import { TransportError, type TextAnswer, type exchange } from '../../../src/core/api/transport.js';
import { catalogCacheFile, fetchCatalogText } from '../../../src/core/catalog/fetch.js';
import { tempDir } from '../../helpers/temp.js';

const ORIGIN = 'https://catalogs.example.test';
let env: NodeJS.ProcessEnv;
type Answer = TextAnswer | Error;

/** Answers each request with the next of `answers`, recording the headers asked with. */
function fakeExchange(answers: Answer[], asked: Record<string, string>[] = []): typeof exchange {
  return async (_url, options) => {
    asked.push(options.headers);
    const next = answers.shift();
    if (!next) throw new Error('no answer left');
    if (next instanceof Error) throw next;
    return next;
  };
}

beforeEach(() => {
  env = { SIMJOB_CACHE_DIR: tempDir('simjob-catalog-cache-') };
});

describe('--catalog URL', () => {
  it('is fetched once, then asked with If-None-Match and read from the cache on 304', async () => {
    const asked: Record<string, string>[] = [];
    const exchange = fakeExchange(
      [
        { statusCode: 200, headers: { etag: '"v1"' }, text: '{"season":"s2"}' },
        { statusCode: 304, headers: {}, text: '' },
        new TransportError('offline', 'ECONNREFUSED'),
      ],
      asked,
    );
    expect(await fetchCatalogText(`${ORIGIN}/s2.json`, { env, exchange })).toBe('{"season":"s2"}');
    const file = catalogCacheFile(`${ORIGIN}/s2.json`, env);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ etag: '"v1"', text: '{"season":"s2"}' });
    expect(asked[0]?.['if-none-match']).toBeUndefined();

    expect(await fetchCatalogText(`${ORIGIN}/s2.json`, { env, exchange })).toBe('{"season":"s2"}');
    expect(asked[1]?.['if-none-match']).toBe('"v1"');

    expect(await fetchCatalogText(`${ORIGIN}/s2.json`, { env, exchange })).toBe('{"season":"s2"}');
  });

  it('refuses http, a failed answer and one over the size cap of an API answer', async () => {
    await expect(fetchCatalogText('http://catalogs.example.test/s2.json', { env })).rejects.toThrow(
      'only https URLs are fetched',
    );
    const missing = fakeExchange([{ statusCode: 404, headers: {}, text: 'no' }]);
    await expect(fetchCatalogText(`${ORIGIN}/missing.json`, { env, exchange: missing })).rejects.toThrow(
      `The catalog ${ORIGIN}/missing.json answered 404.`,
    );
    const offline = fakeExchange([new TransportError('connect ECONNREFUSED', 'ECONNREFUSED')]);
    await expect(fetchCatalogText(`${ORIGIN}/new.json`, { env, exchange: offline })).rejects.toThrow(
      'Cannot fetch the catalog',
    );
    const huge = fakeExchange([new TransportError(`the answer is larger than 16 MB`, 'EBODYLIMIT')]);
    await expect(fetchCatalogText(`${ORIGIN}/huge.json`, { env, exchange: huge })).rejects.toThrow('larger than 16 MB');
    expect(existsSync(catalogCacheFile(`${ORIGIN}/huge.json`, env))).toBe(false);
    expect(MAX_ANSWER_BYTES).toBe(16 * 1024 * 1024);
  });
});
