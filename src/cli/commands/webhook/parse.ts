import { UsageError } from '../../../errors.js';

/** Option parsers of the webhook commands (loaded with the command definitions, so kept free of imports). */

/** A TCP port for --port: 0 (any free port) to 65535. */
export function port(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n > 65_535)
    throw new UsageError(`--port must be a port number from 0 to 65535 (got "${value}").`, 'Use 0 for any free port.');
  return n;
}

/** A URL path for --path, e.g. /webhooks. */
export function urlPath(value: string): string {
  if (!/^\/[\x21-\x7e]*$/.test(value) || value.includes('?') || value.includes('#')) {
    throw new UsageError(
      `--path must be a URL path starting with / (got "${value}").`,
      'For example --path /webhooks.',
    );
  }
  return value;
}

/** An http(s) URL for --forward-to. */
export function httpUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(
      `--forward-to is not a URL (got "${value}").`,
      'For example --forward-to http://localhost:3000/hooks/simjob.',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--forward-to must be an http or https URL (got "${value}").`);
  return url.toString();
}
