/** What the debug log may show of headers and bodies. Secrets are replaced, whatever their shape. */
const SECRET_NAME = /key|token|secret|password|authorization|cookie|credential/i;
const SHOWN_HEADERS = new Set([
  'content-type',
  'content-length',
  'user-agent',
  'accept',
  'idempotency-key',
  'retry-after',
  'location',
  'x-request-id',
  'x-idempotent-replay',
  'x-active-jobs',
  'x-max-active-jobs',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
]);

export function redactHeaders(headers: Record<string, unknown>): Record<string, string> {
  const shown: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (lower === 'authorization') shown[name] = `${String(value).split(' ')[0]} [REDACTED]`;
    else if (lower !== 'idempotency-key' && SECRET_NAME.test(lower)) shown[name] = '[REDACTED]';
    else if (SHOWN_HEADERS.has(lower)) shown[name] = String(value);
  }
  return shown;
}

/** A JSON body with every secret-looking field replaced; long strings (profile text) shortened. */
export function redactBody(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactBody);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value))
      out[k] = SECRET_NAME.test(k) && v !== null ? '[REDACTED]' : redactBody(v);
    return out;
  }
  if (typeof value === 'string' && value.length > 300) return `${value.slice(0, 300)}… (${value.length} chars)`;
  return value;
}
