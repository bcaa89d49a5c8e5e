import { describe, expect, it } from 'vitest';
import { explainApiError } from '../../src/core/api/explain.js';

describe('explainApiError', () => {
  it('a refused directive: the message names the first line and ends as a sentence before the fix', () => {
    const details = {
      status: 422,
      code: 'input_sanitized_rejected',
      method: 'POST',
      path: '/v1/sim/jobs',
      retryAfterMs: undefined,
    };
    const meta = {
      blocked: [
        { line: 39, text: 'input=gear.simc' },
        { line: 40, text: 'threads=4' },
      ],
      blockedCount: 2,
    };
    const { message, hint } = explainApiError({ ...details, meta }, undefined);
    expect(`${message} ${hint}`).toBe(
      'The profile uses a directive the service does not allow (input_sanitized_rejected). Line 39: input=gear.simc (and 1 more). ' +
        'Remove output, file, network and thread directives (output=, html=, json2=, threads=, …); the service sets them itself.',
    );
    expect(explainApiError({ ...details, meta: {} }, undefined).message).toBe(
      'The profile uses a directive the service does not allow (input_sanitized_rejected).',
    );
  });
});
