import { describe, expect, it } from 'vitest';
import { JobRecord, ResultRecord, StatusRecord, SubmitRequest } from '../../src/core/resources/schemas.js';

describe('schemas', () => {
  it('are strict about what the client sends', () => {
    const base = { build: { channel: 'nightly' }, profile: { text: 'x' } };
    expect(SubmitRequest.safeParse(base).success).toBe(true);
    expect(SubmitRequest.safeParse({ ...base, surprise: 1 }).success).toBe(false);
    expect(SubmitRequest.safeParse({ ...base, build: { channel: 'daily' } }).success).toBe(false);
    expect(SubmitRequest.safeParse({ ...base, runtime: { maxQueueSeconds: 0 } }).success).toBe(false);
    expect(SubmitRequest.safeParse({ ...base, runtime: { maxQueueSeconds: 1.5 } }).success).toBe(false);
    expect(SubmitRequest.safeParse({ ...base, priority: 'urgent' }).success).toBe(false);
  });
  it('keep fields a newer server adds, and accept new enum values', () => {
    const job = JobRecord.parse({
      id: '1',
      status: 'paused_for_maintenance',
      shinyNewField: { x: 1 },
      build: { id: 'b', extra: true },
    });
    expect(job.status).toBe('paused_for_maintenance');
    expect((job as Record<string, unknown>).shinyNewField).toEqual({ x: 1 });
    const status = StatusRecord.parse({
      status: 'running',
      queue: null,
      progress: { percent: 5, stage: null, eta: 3 },
    });
    expect(status.progress?.percent).toBe(5);
    const result = ResultRecord.parse({
      id: '1',
      status: 'completed',
      result: {
        summary: {
          metric: 'raid_dps',
          mainActor: null,
          multiStage: { enabled: false, reason: 'a_new_reason', stages: [] },
        },
        artifacts: [{ id: 'a', url: 'u', kind: 'flamegraph', mimeType: 'image/svg+xml', stage: null }],
      },
    });
    expect(result.result.artifacts?.[0]?.kind).toBe('flamegraph');
  });
  it('still reject answers that lack what the CLI needs', () => {
    expect(JobRecord.safeParse({ status: 'queued' }).success).toBe(false);
    expect(ResultRecord.safeParse({ id: '1', status: 'completed' }).success).toBe(false);
  });
});
