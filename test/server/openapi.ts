/**
 * The service's OpenAPI 1.19.1 reference (a copy of /work/shared/spec/reference/openapi-1.19.1.json) compiled with
 * ajv in strict mode: the submit body the server enforces, and the check of every request a client makes and every
 * answer the server gives, so tests can assert both sides keep to the schema.
 */
import ajvModule, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import spec from './openapi-1.19.1.json' with { type: 'json' };
import type { Validation } from './types.js';

const Ajv2020 = ajvModule.default;
const addFormats = formatsModule.default;

type Schema = Record<string, unknown>;

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  validate: ValidateFunction;
  type: string | undefined;
}

interface ResponseSpec {
  validate: ValidateFunction | undefined;
  requiredHeaders: string[];
}

export interface Operation {
  id: string;
  method: string;
  template: string;
  pattern: RegExp;
  pathParams: string[];
  parameters: Parameter[];
  body: ValidateFunction | undefined;
  responses: Map<string, ResponseSpec>;
}

const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
addFormats(ajv);
ajv.addVocabulary(['example']);

const doc = spec as unknown as {
  components: { schemas: Record<string, Schema> };
  paths: Record<string, Record<string, Schema>>;
};

/** Inline `#/components/schemas/*` references: the only kind the document uses. */
function resolve(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(resolve);
  if (node === null || typeof node !== 'object') return node;
  const obj = node as Schema;
  if (typeof obj.$ref === 'string') {
    const name = obj.$ref.replace('#/components/schemas/', '');
    const target = doc.components.schemas[name];
    if (!target) throw new Error(`unresolved $ref ${obj.$ref}`);
    return resolve(target);
  }
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, resolve(v)]));
}

function compile(schema: unknown): ValidateFunction {
  return ajv.compile(resolve(schema) as Schema);
}

function jsonSchemaOf(content: unknown): unknown {
  const c = content as Record<string, { schema?: unknown }> | undefined;
  return c?.['application/json']?.schema;
}

function buildOperations(): Operation[] {
  const ops: Operation[] = [];
  for (const [template, methods] of Object.entries(doc.paths)) {
    for (const [method, raw] of Object.entries(methods)) {
      const pathParams: string[] = [];
      const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_m, name: string) => {
        pathParams.push(name);
        return '([^/]+)';
      });
      const parameters = ((raw.parameters as Schema[] | undefined) ?? []).map((p): Parameter => ({
        name: String(p.name),
        in: p.in as Parameter['in'],
        required: p.required === true,
        validate: compile(p.schema),
        type: (p.schema as Schema | undefined)?.type as string | undefined,
      }));
      const bodySchema = jsonSchemaOf((raw.requestBody as Schema | undefined)?.content);
      const responses = new Map<string, ResponseSpec>();
      for (const [status, r] of Object.entries((raw.responses as Record<string, Schema>) ?? {})) {
        const schema = jsonSchemaOf(r.content);
        const headers = (r.headers as Record<string, { required?: boolean }> | undefined) ?? {};
        responses.set(status, {
          validate: schema === undefined ? undefined : compile(schema),
          requiredHeaders: Object.entries(headers)
            .filter(([, h]) => h.required)
            .map(([name]) => name.toLowerCase()),
        });
      }
      ops.push({
        id: String(raw.operationId),
        method: method.toUpperCase(),
        template,
        pattern: new RegExp(`^${source}$`),
        pathParams,
        parameters,
        body: bodySchema === undefined ? undefined : compile(bodySchema),
        responses,
      });
    }
  }
  return ops;
}

export const operations = buildOperations();

export function findOperation(
  method: string,
  pathname: string,
): { op: Operation; params: Record<string, string> } | null {
  for (const op of operations) {
    if (op.method !== method) continue;
    const m = op.pattern.exec(pathname);
    if (!m) continue;
    const params: Record<string, string> = {};
    op.pathParams.forEach((name, i) => {
      params[name] = safeDecode(m[i + 1] ?? '');
    });
    return { op, params };
  }
  return null;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** ajv errors as short sentences naming the field. */
export function describeErrors(errors: ErrorObject[] | null | undefined, root = 'body'): string[] {
  return (errors ?? []).map((e) => {
    const where = e.instancePath ? e.instancePath.slice(1).replace(/\//g, '.') : root;
    switch (e.keyword) {
      case 'additionalProperties':
        return `${where} has unknown property '${String((e.params as { additionalProperty: string }).additionalProperty)}'`;
      case 'enum':
        return `${where} must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map(String).join(', ')}`;
      case 'required':
        return `${where} is missing required property '${String((e.params as { missingProperty: string }).missingProperty)}'`;
      default:
        return `${where} ${e.message ?? 'is invalid'}`;
    }
  });
}

/** The createJob body against the 1.19.1 schema: [] when valid. */
export function checkSubmitBody(body: unknown): string[] {
  const op = operations.find((o) => o.id === 'createJob');
  if (!op?.body) throw new Error('createJob body schema missing');
  return op.body(body) ? [] : describeErrors(op.body.errors);
}

function coerce(value: string, type: string | undefined): unknown {
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  if (type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

export interface RequestToCheck {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  contentType: string | null;
  /** The JSON body (a text/plain submit: its JSON equivalent), or undefined when empty. */
  body: unknown;
  bodyIsJson: boolean;
}

/** A request against the document: known operation, bearer auth, parameters, body. */
export function validateRequest(req: RequestToCheck): { operation: string | null; validation: Validation } {
  const found = findOperation(req.method, req.path);
  if (!found)
    return { operation: null, validation: { valid: false, errors: [`no operation ${req.method} ${req.path}`] } };
  const { op, params } = found;
  const errors: string[] = [];
  const auth = req.headers.authorization;
  if (typeof auth !== 'string' || !/^Bearer \S+$/.test(auth)) errors.push('missing Authorization: Bearer <key>');
  for (const p of op.parameters) {
    const raw =
      p.in === 'path' ? params[p.name] : p.in === 'query' ? req.query[p.name] : headerValue(req.headers, p.name);
    if (raw === undefined) {
      if (p.required) errors.push(`${p.in} parameter ${p.name} is required`);
      continue;
    }
    if (!p.validate(coerce(raw, p.type)))
      errors.push(...describeErrors(p.validate.errors, `${p.in} parameter ${p.name}`));
  }
  const known = new Set(op.parameters.filter((p) => p.in === 'query').map((p) => p.name));
  for (const name of Object.keys(req.query)) if (!known.has(name)) errors.push(`unknown query parameter ${name}`);
  if (op.body) {
    if (req.body === undefined) errors.push('request body is required');
    else if (!op.body(req.body)) errors.push(...describeErrors(op.body.errors));
    else if (req.bodyIsJson && !/^application\/json\b/i.test(req.contentType ?? ''))
      errors.push('content-type must be application/json');
  } else if (req.body !== undefined) {
    errors.push(`${op.id} takes no request body`);
  }
  return { operation: op.id, validation: { valid: errors.length === 0, errors } };
}

function headerValue(headers: RequestToCheck['headers'], name: string): string | undefined {
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

/** An answer against the response schema of its status (and the headers 1.19.1 marks required). */
export function validateResponse(
  operationId: string | null,
  status: number,
  headers: Record<string, unknown>,
  body: unknown,
): Validation {
  const op = operations.find((o) => o.id === operationId);
  const spec = op?.responses.get(String(status));
  if (!op || !spec) return { valid: null, errors: [] };
  const errors: string[] = [];
  for (const name of spec.requiredHeaders)
    if (headers[name] === undefined) errors.push(`missing response header ${name}`);
  if (spec.validate && !spec.validate(body)) errors.push(...describeErrors(spec.validate.errors, 'response'));
  return { valid: errors.length === 0, errors };
}
