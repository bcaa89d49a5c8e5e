/**
 * Compile-time only (`npm run typecheck`): every record the schemas accept fits the library's plain types, so the
 * published types never promise a field the service may leave out. Nothing here runs.
 */
import type * as schemas from './schemas.js';
import type * as pub from './types.js';

type Fits<Inner, Outer> = [Inner] extends [Outer] ? true : false;
const fits = <T extends true>(): T | undefined => undefined;

export const checked = [
  fits<Fits<schemas.SubmitResponse, pub.SubmitResponse>>(),
  fits<Fits<schemas.JobRecord, pub.JobRecord>>(),
  fits<Fits<schemas.StatusRecord, pub.StatusRecord>>(),
  fits<Fits<schemas.ResultRecord, pub.ResultRecord>>(),
  fits<Fits<schemas.Summary, pub.Summary>>(),
  fits<Fits<schemas.Artifact, pub.Artifact>>(),
  fits<Fits<schemas.CancelResponse, pub.CancelResponse>>(),
  fits<Fits<schemas.JobList, pub.JobList>>(),
  fits<Fits<schemas.Usage, pub.Usage>>(),
  fits<Fits<schemas.Build, pub.Build>>(),
  fits<Fits<schemas.BuildList, pub.BuildList>>(),
  fits<Fits<schemas.MainActor, pub.MainActor>>(),
  // and back: what the library hands out is what the CLI's own code reads
  fits<Fits<pub.ResultRecord, schemas.ResultRecord>>(),
  fits<Fits<pub.StatusRecord, schemas.StatusRecord>>(),
];
