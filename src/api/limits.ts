/**
 * The service's documented bounds on a submission (spec 2.1, notes §9), as plain constants: a local submit checks
 * them by hand and never loads the schemas (zod) that a request to the service is checked against.
 */
export const MAX_PROFILE_BYTES = 2 * 1024 * 1024;
export const MAX_METADATA_VALUE = 500;
export const IDEMPOTENCY_KEY = /^[\x21-\x7E](?:[\x20-\x7E]*[\x21-\x7E])?$/;
/** Provider credentials: each 1-256 characters. */
export const MAX_CREDENTIAL_LENGTH = 256;
