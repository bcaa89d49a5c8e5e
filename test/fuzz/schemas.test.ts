/**
 * Property tests of the API schemas and the human views behind them: any JSON, and real answers of the spec test
 * server mutated (fields removed, wrong types, huge arrays), either fail the schema (which the HTTP layer turns into
 * one NetworkError) or parse into records every view renders without throwing and without a control character.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schemas from '../../src/core/resources/schemas.js';
import { Output } from '../../src/cli/output/io.js';
import { printBatchSummary } from '../../src/cli/output/views/batch-summary.js';
import { printResult } from '../../src/cli/output/views/result.js';
import { describeStatus, printStatus } from '../../src/cli/output/views/status.js';
import { memoryStream } from '../helpers/streams.js';
import { startServer, type TestServer } from '../server/index.js';
import { get, newJob } from '../server/test-client.js';
import { mutate, mutations, params } from './fuzz.js';

type Schema = { safeParse(value: unknown): { success: boolean; data?: unknown } };
const RESPONSE_SCHEMAS: Record<string, Schema> = {
  SubmitResponse: schemas.SubmitResponse,
  JobRecord: schemas.JobRecord,
  StatusRecord: schemas.StatusRecord,
  ResultRecord: schemas.ResultRecord,
  CancelResponse: schemas.CancelResponse,
  JobList: schemas.JobList,
  ArtifactUrl: schemas.ArtifactUrl,
  Usage: schemas.Usage,
  Build: schemas.Build,
  BuildList: schemas.BuildList,
  ErrorEnvelope: schemas.ErrorEnvelope,
  WebhookEvent: schemas.WebhookEvent,
  SubmitRequest: schemas.SubmitRequest,
};
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

let server: TestServer;
const samples: Record<string, unknown> = {};

beforeAll(async () => {
  server = await startServer({ queueMs: 10, runMs: 50, concurrency: 4 });
  const sets = Array.from({ length: 8 }, (_, i) => `profileset."set_${i}"+=trinket1=,id=${200_000 + i}`).join('\n');
  const done = await newJob(
    server,
    { profile: { text: `warrior="Fury"\nlevel=80\nspec=fury\n${sets}\n` }, runtime: { multiStage: true } },
    { team: 'raid' },
  );
  const failed = await newJob(server, {}, { 'test.outcome': 'simulation_error' });
  await server.waitForJob(done);
  await server.waitForJob(failed);
  samples.result = (await get(server, `/v1/sim/jobs/${done}/result`)).body;
  samples.failedResult = (await get(server, `/v1/sim/jobs/${failed}/result`)).body;
  samples.status = (await get(server, `/v1/sim/jobs/${done}/status`)).body;
  samples.jobs = (await get(server, '/v1/sim/jobs')).body;
  samples.usage = (await get(server, '/v1/sim/usage')).body;
});
afterAll(async () => {
  await server?.close();
});

function output(tty: boolean) {
  const stdout = memoryStream(tty, 80);
  const stderr = memoryStream(tty, 80);
  return {
    out: new Output({ stdout, stderr, env: { NO_COLOR: '1' }, json: false, noColor: true, quiet: false }),
    text: () => stdout.text() + stderr.text(),
  };
}

/** Every view that shows a result or a status, on a terminal and piped: none may throw or emit a control. */
function renderResult(record: schemas.ResultRecord): void {
  for (const tty of [true, false]) {
    const { out, text } = output(tty);
    printResult(out, record, { top: 20 });
    printBatchSummary(out, [
      { label: 'a.simc', id: record.id, outcome: record },
      { label: 'b.simc', problem: 'not submitted' },
    ]);
    expect(text()).not.toMatch(CONTROL);
  }
}

function renderStatus(status: schemas.StatusRecord): void {
  for (const tty of [true, false]) {
    const { out, text } = output(tty);
    printStatus(out, '1', status);
    out.line(describeStatus(status, { etaElapsedMs: 5000 }));
    expect(text()).not.toMatch(CONTROL);
  }
}

describe('schemas and views', () => {
  it('any JSON: every schema answers success or failure, never throws', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        for (const schema of Object.values(RESPONSE_SCHEMAS)) schema.safeParse(value);
      }),
      params(),
    );
  });

  for (const [name, schema, render] of [
    ['result', schemas.ResultRecord, renderResult],
    ['failedResult', schemas.ResultRecord, renderResult],
    ['status', schemas.StatusRecord, renderStatus],
  ] as const) {
    it(`a mutated ${name} answer parses or fails cleanly, and renders`, () => {
      const base = samples[name];
      expect(schema.safeParse(base).success).toBe(true);
      if (name === 'result')
        expect((base as schemas.ResultRecord).result.summary?.mainActor?.profilesets?.results.length).toBeGreaterThan(
          0,
        );
      fc.assert(
        fc.property(mutations(base, 5), (list) => {
          const parsed = schema.safeParse(mutate(base, list));
          if (parsed.success) (render as (v: unknown) => void)(parsed.data);
        }),
        params(),
      );
    });
  }

  it('mutated job lists and usage parse or fail cleanly', () => {
    for (const [key, schema] of [
      ['jobs', schemas.JobList],
      ['usage', schemas.Usage],
    ] as const) {
      const base = samples[key];
      expect(schema.safeParse(base).success).toBe(true);
      fc.assert(
        fc.property(mutations(base, 5), (list) => {
          schema.safeParse(mutate(base, list));
        }),
        { ...params(), numRuns: Math.max(20, Math.floor(params().numRuns! / 4)) },
      );
    }
  });
});
