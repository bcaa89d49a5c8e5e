import { describe, expect, it } from 'vitest';
import { explainApiError } from '../../src/core/api/explain.js';

const notFound = (method: string, path: string) =>
  explainApiError(
    {
      status: 404,
      code: 'not_found',
      meta: null,
      retryAfterMs: undefined,
      method,
      path,
      url: `http://127.0.0.1:48123${path}`,
    },
    'No route',
  );

describe('a 404', () => {
  it('on an endpoint that always exists (no id): the base URL looks wrong, with the URL requested', () => {
    for (const [method, path] of [
      ['GET', '/v1/v1/sim/usage'],
      ['GET', '/api/v1/sim/builds'],
      ['GET', '/x/v1/sim/jobs'],
      ['POST', '/x/v1/sim/jobs'],
    ] as const) {
      const { message, hint } = notFound(method, path);
      expect(message).toBe(
        `Not found: ${method} http://127.0.0.1:48123${path} (not_found, HTTP 404) (No route). The base URL looks wrong.`,
      );
      expect(hint).toMatch(
        /^Set the API root, the part before \/v1\/ \(e\.g\. https:\/\/api\.example\.com\): `simjob config set base_url URL`/,
      );
      expect(hint).not.toMatch(/id/);
    }
  });

  it('on a job, build or artifact: check the id', () => {
    for (const path of ['/v1/sim/jobs/519253542012420096/status', '/v1/sim/builds/b_1', '/v1/sim/artifacts/a_1/url']) {
      const { message, hint } = notFound('GET', path);
      expect(message).toBe(`Not found: GET ${path} (not_found, HTTP 404) (No route).`);
      expect(hint).toBe('Check the id; jobs past their retention are no longer listed.');
    }
  });
});
