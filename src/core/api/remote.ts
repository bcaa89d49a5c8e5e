import type { ArtifactSource } from './download.js';
import type { Fetched, JobBackend, ListParams, SubmitInput, Submitted } from '../jobs/backend.js';
import { HttpClient, header, type HttpOptions } from './http.js';
import {
  ArtifactUrl,
  Build,
  BuildList,
  CancelResponse,
  JobList,
  JobRecord,
  ResultRecord,
  StatusRecord,
  SubmitResponse,
  Usage,
  type SubmitRequest,
} from '../resources/schemas.js';

const enc = encodeURIComponent;

/** The hosted Simulation Job Service (spec §4), one method per endpoint. */
export class RemoteBackend implements JobBackend {
  readonly kind = 'remote' as const;
  readonly http: HttpClient;

  constructor(options: HttpOptions) {
    this.http = new HttpClient(options);
  }

  async submit(input: SubmitInput): Promise<Submitted> {
    // Its retries are safe only with a key: the client (client.ts) and the CLI (cli/submitting/submit.ts) give every
    // remote submission one.
    if (!input.idempotencyKey) throw new Error('A remote submission needs an idempotency key.');
    const headers: Record<string, string> = { 'idempotency-key': input.idempotencyKey };
    const response = input.plain
      ? await this.http.call('POST', '/v1/sim/jobs', {
          schema: SubmitResponse,
          text: input.request.profile.text,
          query: plainQuery(input.request),
          headers: { ...headers, ...plainHeaders(input.request) },
          retry: 'idempotent',
        })
      : await this.http.call('POST', '/v1/sim/jobs', {
          schema: SubmitResponse,
          json: input.request,
          headers,
          retry: 'idempotent',
        });
    return {
      data: response.data,
      raw: response.raw,
      replay: header(response.headers, 'x-idempotent-replay') === 'true',
    };
  }

  job(id: string): Promise<Fetched<JobRecord>> {
    return this.http.call('GET', `/v1/sim/jobs/${enc(id)}`, { schema: JobRecord, retry: 'read' });
  }

  status(id: string, options: { once?: boolean } = {}): Promise<Fetched<StatusRecord>> {
    const retry = options.once ? 'never' : 'read';
    return this.http.call('GET', `/v1/sim/jobs/${enc(id)}/status`, {
      schema: StatusRecord,
      retry,
    });
  }

  result(id: string): Promise<Fetched<ResultRecord>> {
    return this.http.call('GET', `/v1/sim/jobs/${enc(id)}/result`, { schema: ResultRecord, retry: 'read' });
  }

  /** Cancelling twice answers the same, so a lost answer is safe to ask again. */
  cancel(id: string): Promise<Fetched<CancelResponse>> {
    return this.http.call('POST', `/v1/sim/jobs/${enc(id)}/cancel`, {
      schema: CancelResponse,
      retry: 'read',
    });
  }

  list(params: ListParams): Promise<Fetched<JobList>> {
    return this.http.call('GET', '/v1/sim/jobs', {
      schema: JobList,
      query: { limit: params.limit, cursor: params.cursor },
      retry: 'read',
    });
  }

  async artifactUrl(artifactId: string): Promise<string> {
    const response = await this.http.call('GET', `/v1/sim/artifacts/${enc(artifactId)}/url`, {
      schema: ArtifactUrl,
      retry: 'read',
    });
    return response.data.url;
  }

  artifactSource(): ArtifactSource {
    return { kind: 'remote', baseUrl: this.http.baseUrl };
  }

  usage(): Promise<Fetched<Usage>> {
    return this.http.call('GET', '/v1/sim/usage', { schema: Usage, retry: 'read' });
  }

  build(id: string): Promise<Fetched<Build>> {
    return this.http.call('GET', `/v1/sim/builds/${enc(id)}`, { schema: Build, retry: 'read' });
  }

  builds(): Promise<Fetched<BuildList>> {
    return this.http.call('GET', '/v1/sim/builds', { schema: BuildList, retry: 'read' });
  }
}

/**
 * The text/plain form of spec 2.1: options as query parameters (notes §2.2 lists the full set; booleans are the
 * literal strings true/false). Metadata has no plain-text form; submit refuses --plain with --meta.
 */
function plainQuery(req: SubmitRequest): Record<string, string | undefined> {
  return {
    channel: req.build.channel,
    gitBranch: req.build.gitBranch,
    priority: req.priority,
    multiStage: req.runtime?.multiStage === undefined ? undefined : String(req.runtime.multiStage),
    maxRuntimeSeconds: req.runtime?.maxRuntimeSeconds?.toString(),
    maxQueueSeconds: req.runtime?.maxQueueSeconds?.toString(),
    webhookEvents: req.webhook?.events.join(','),
    artifactsHtml: req.artifacts?.html === undefined ? undefined : String(req.artifacts.html),
    artifactsCsv: req.artifacts?.csv === undefined ? undefined : String(req.artifacts.csv),
    artifactsJsonVersion: req.artifacts?.json?.version,
  };
}

/** Provider credentials travel as a header pair in the plain-text form, never as query parameters. */
function plainHeaders(req: SubmitRequest): Record<string, string> {
  if (!req.credentials) return {};
  return {
    'x-provider-client-id': req.credentials.providerClientId,
    'x-provider-client-secret': req.credentials.providerClientSecret,
  };
}
