/**
 * The API server's request cycle: request id → body → record (with its openapi check) → injected fault → route
 * (auth first) → answer, with extra fields when that mode is on, `X-Request-Id` on every response and the error
 * envelope on every non-2xx.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Answer, Call, ServerContext } from './context.js';
import { addExtraFields, addHostileText, answerWithFault, defaultCode, defaultMeta, type Faults } from './faults.js';
import { ApiFailure, envelope, mediaType, newRequestId, readBody, sendJson, single } from './http.js';
import { findOperation, operations, validateRequest, validateResponse } from './openapi.js';
import { getBuild, getCredits, getUsage, listBuilds } from './routes-account.js';
import { cancelJob, getArtifactUrl, getJob, getJobResult, getJobStatus, listJobs } from './routes-jobs.js';
import { createJob } from './routes-submit.js';
import { MAX_BODY_BYTES, plainToJson } from './submit.js';
import type { RecordedRequest } from './types.js';

type Handler = (ctx: ServerContext, call: Call) => Answer;

const HANDLERS: Record<string, Handler> = {
  createJob,
  listJobs,
  getJob,
  getJobStatus,
  getJobResult,
  cancelJob,
  getArtifactUrl,
  getUsage,
  getCredits,
  listBuilds,
  getBuild,
};

export class ApiServer {
  readonly requests: RecordedRequest[] = [];
  readonly server: Server;
  url = '';

  constructor(
    private readonly ctx: ServerContext,
    private readonly faults: Faults,
  ) {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        if (res.headersSent) return void res.destroy();
        const failure = new ApiFailure(
          500,
          'internal_error',
          `Test server bug: ${error instanceof Error ? error.stack : String(error)}`,
        );
        sendJson(res, 500, envelope(failure, newRequestId()));
      });
    });
  }

  async listen(host: string, port: number): Promise<void> {
    this.server.listen(port, host);
    await once(this.server, 'listening');
    this.url = `http://${host}:${(this.server.address() as AddressInfo).port}`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = newRequestId();
    const url = new URL(req.url ?? '/', 'http://x');
    const method = req.method ?? 'GET';
    const query = Object.fromEntries(url.searchParams);
    const { bytes, size } = await readBody(req, MAX_BODY_BYTES);
    const record = this.record(req, method, url.pathname, query, bytes, size, requestId);

    const fault = this.faults.take('api', method, url.pathname);
    if (fault && !fault.mutate) {
      record.injected = true;
      record.status = fault.status;
      const envelopeOf = () =>
        envelope(
          new ApiFailure(
            fault.status,
            fault.code ?? defaultCode(fault.status),
            'Injected fault.',
            fault.meta === undefined ? defaultMeta(fault.status) : fault.meta,
          ),
          requestId,
        );
      return answerWithFault(res, fault, { 'x-request-id': requestId, ...fault.headers }, envelopeOf);
    }

    let answer: Answer;
    try {
      answer = this.route(method, url.pathname, { query, headers: req.headers, bytes });
    } catch (error) {
      if (!(error instanceof ApiFailure)) throw error;
      answer = { status: error.status, body: envelope(error, requestId), headers: error.headers };
    }
    const extended = this.ctx.extras.on ? addExtraFields(answer.body) : answer.body;
    let body = this.ctx.hostile.on ? addHostileText(extended, this.ctx.hostile.spare) : extended;
    if (fault?.mutate) {
      record.injected = true;
      body = fault.mutate(structuredClone(body));
    }
    const headers = { ...answer.headers, 'x-request-id': requestId };
    sendJson(res, answer.status, body, headers);
    record.status = answer.status;
    record.responseValidation =
      this.ctx.extras.on || this.ctx.hostile.on || fault?.mutate
        ? { valid: null, errors: [] }
        : validateResponse(record.operation, answer.status, headers, body);
  }

  private route(method: string, path: string, call: Omit<Call, 'account' | 'params'>): Answer {
    const found = findOperation(method, path);
    if (!found) {
      const allowed = operations.filter((o) => o.pattern.test(path)).map((o) => o.method);
      if (allowed.length)
        throw new ApiFailure(405, 'method_not_allowed', `${method} is not allowed on ${path}.`, null, {
          allow: allowed.join(', '),
        });
      throw new ApiFailure(404, 'not_found', `No route for ${method} ${path}.`);
    }
    const account = this.ctx.accounts.authenticate(call.headers.authorization);
    if (method === 'GET') account.readsUsed++;
    this.ctx.engine.advance();
    const handler = HANDLERS[found.op.id];
    if (!handler) throw new ApiFailure(404, 'not_found', `No route for ${method} ${path}.`);
    return handler(this.ctx, { ...call, account, params: found.params });
  }

  /** Record the request with what it parsed to and whether it keeps to openapi 1.19.1. */
  private record(
    req: IncomingMessage,
    method: string,
    path: string,
    query: Record<string, string>,
    bytes: Buffer | null,
    size: number,
    requestId: string,
  ): RecordedRequest {
    const contentType = single(req.headers['content-type']) ?? null;
    const type = mediaType(contentType ?? undefined);
    let body: unknown = null;
    let checked: unknown;
    let mappingError: string | undefined;
    if (bytes === null) body = `<${size} bytes>`;
    else if (bytes.length > 0) {
      const text = bytes.toString('utf8');
      body = text;
      checked = text;
      if (type === 'application/json') {
        try {
          body = checked = JSON.parse(text);
        } catch {
          // recorded as text; fails validation
        }
      } else if (type === 'text/plain' && method === 'POST' && path === '/v1/sim/jobs') {
        try {
          checked = plainToJson(text, query, req.headers);
        } catch (error) {
          mappingError = error instanceof Error ? error.message : String(error);
        }
      }
    }
    const { operation, validation } = validateRequest({
      method,
      path,
      query: type === 'text/plain' ? {} : query,
      headers: req.headers,
      contentType,
      body: checked,
      bodyIsJson: type !== 'text/plain',
    });
    if (mappingError) {
      validation.errors.push(`text/plain form: ${mappingError}`);
      validation.valid = false;
    }
    const record: RecordedRequest = {
      at: this.ctx.clock.now(),
      method,
      path,
      query,
      headers: { ...req.headers },
      body,
      contentType,
      operation,
      validation,
      requestId,
    };
    this.requests.push(record);
    return record;
  }
}
