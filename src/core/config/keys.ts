import { CHANNELS, PRIORITIES } from '../resources/enums.js';
import { UsageError } from '../../errors.js';
import { oneOf, positiveInteger } from '../../util/parse.js';

/**
 * Every setting `simjob config` accepts, with its validation. Settings are per profile and live in config.json;
 * secrets are never settings (they live in credentials.json, written by `simjob login`).
 */
export interface SettingKey {
  name: string;
  description: string;
  /** Validate and normalise a value typed by the user; throw a UsageError that says what is allowed. */
  parse(value: string): string | number;
}

export function parseBaseUrl(value: string, source = 'base_url'): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${source} is not a URL (got "${value}").`, 'Use the form https://host[:port].');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`${source} must be an http or https URL (got "${value}").`);
  }
  if (url.username || url.password) {
    throw new UsageError(`${source} must not contain a user name or password; keys belong in \`simjob login\`.`);
  }
  if (url.search || url.hash) {
    throw new UsageError(`${source} must not contain a query or fragment (got "${value}").`);
  }
  // Keep any path prefix (for a proxy), without the trailing slash, so paths join as {base_url}/v1/sim/...
  return url.toString().replace(/\/+$/, '');
}

/**
 * The service's base URL: a URL as parseBaseUrl takes it, and not ending in /v1, since simjob adds /v1/sim/… itself
 * (…/v1 would request /v1/v1/sim/…, which 404s). Refused rather than mended, so the setting shown is the one used.
 */
export function parseServiceUrl(
  value: string,
  source = 'base_url',
  fix = (root: string) => `Use ${root} instead.`,
): string {
  const url = parseBaseUrl(value, source);
  const root = url.replace(/\/v1$/, '');
  if (root !== url) {
    throw new UsageError(
      `${source} must be the API root, without /v1 (got "${value}"): simjob adds /v1/sim/… itself.`,
      fix(root),
    );
  }
  return url;
}

function path(value: string): string {
  if (!value.trim()) throw new UsageError('A path cannot be empty.');
  return value;
}

export const SETTING_KEYS: readonly SettingKey[] = [
  { name: 'base_url', description: 'API base URL of the Simulation Job Service.', parse: (v) => parseServiceUrl(v) },
  {
    name: 'channel',
    description: 'Default build channel for submit: nightly, weekly or latest.',
    parse: oneOf('channel', CHANNELS),
  },
  {
    name: 'priority',
    description: 'Default priority for submit: background, standard or high.',
    parse: oneOf('priority', PRIORITIES),
  },
  { name: 'output', description: 'Default output: human or json.', parse: oneOf('output', ['human', 'json']) },
  { name: 'simc.path', description: 'Path of the local simc binary (any channel).', parse: path },
  { name: 'simc.nightly', description: 'Local simc binary for the nightly channel.', parse: path },
  { name: 'simc.weekly', description: 'Local simc binary for the weekly channel.', parse: path },
  { name: 'simc.latest', description: 'Local simc binary for the latest channel.', parse: path },
  {
    name: 'local.concurrency',
    description: 'Local jobs run at once (default 1: simc uses every core).',
    parse: positiveInteger('local.concurrency'),
  },
  {
    name: 'webhook.url',
    description: 'Receiver URL for webhook events of local jobs.',
    parse: (v) => parseBaseUrl(v, 'webhook.url'),
  },
];

export function findSettingKey(name: string): SettingKey {
  const key = SETTING_KEYS.find((k) => k.name === name);
  if (!key) {
    throw new UsageError(
      `Unknown setting "${name}".`,
      `Known settings: ${SETTING_KEYS.map((k) => k.name).join(', ')}.`,
    );
  }
  return key;
}
