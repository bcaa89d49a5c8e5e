/** The builds the server knows (notes §11): the current build of each channel plus one older, unreferenced one. */
import type { Build, Channel } from './types.js';

const MANIFEST = ['MID1_Mage_Arcane.simc', 'MID1_Mage_Fire.simc', 'MID1_Priest_Shadow.simc', 'MID1_Warrior_Fury.simc'];

function build(id: string, channel: Channel | null, commit: string, createdAt: string, ci: Build['ci']): Build {
  return {
    id,
    channel,
    gitBranch: 'midnight',
    repo: 'simulationcraft/simc',
    commit,
    createdAt,
    ci,
    manifest: MANIFEST,
  };
}

const pass = { status: 'pass' as const, failed: 0, total: 12, failures: [] };

export const BUILDS: readonly Build[] = [
  build(
    '3f1c2a8e-5b7d-4e9f-a1c3-0d2e4f6a8b01',
    'latest',
    'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
    '2026-11-21T22:10:00.000Z',
    pass,
  ),
  build(
    '7a9e4c21-0f3b-4d6a-9c8e-2b1d5f7a3c02',
    'nightly',
    'b2c3d4e5f60718293a4b5c6d7e8f901234567890',
    '2026-11-20T22:05:00.000Z',
    {
      status: 'partial',
      failed: 1,
      total: 12,
      failures: ['build / ubuntu-clang (no-lto)'],
    },
  ),
  build(
    'c4d8b2e6-1a3f-4b5c-8d7e-9f0a1b2c3d03',
    'weekly',
    'c3d4e5f60718293a4b5c6d7e8f90123456789012',
    '2026-11-16T22:00:00.000Z',
    pass,
  ),
  build(
    'e5f6a7b8-2c4d-4e6f-8a0b-1c2d3e4f5a04',
    null,
    'd4e5f60718293a4b5c6d7e8f9012345678901234',
    '2026-10-01T22:00:00.000Z',
    {
      status: 'unknown',
      failed: 0,
      total: 0,
      failures: [],
    },
  ),
];

export function buildFor(channel: Channel): Build {
  const found = BUILDS.find((b) => b.channel === channel);
  if (!found) throw new Error(`no build for ${channel}`);
  return found;
}

/** The list / record shape of notes §11 (`withChannel` false for GET /builds/{id}). */
export function buildView(b: Build, withChannel: boolean): Record<string, unknown> {
  const view: Record<string, unknown> = {
    gitBranch: b.gitBranch,
    repo: b.repo,
    commit: b.commit,
    simcVersion: null,
    gameData: null,
    id: b.id,
    createdAt: b.createdAt,
    ci: {
      status: b.ci.status,
      checks: { total: b.ci.total, passed: b.ci.total - b.ci.failed, failed: b.ci.failed },
      failures: b.ci.failures,
      gatedOn: ['build / *'],
      retrievedAt: b.createdAt,
    },
    profiles: { manifest: b.manifest },
  };
  return withChannel ? { channel: b.channel, ...view } : view;
}

/** The compact `build` of a job record. */
export function jobBuildView(b: Build, channel: Channel): Record<string, unknown> {
  return { id: b.id, channel, commit: b.commit, ci: { status: b.ci.status, failed: b.ci.failed } };
}
