import { join } from 'node:path';
import { CHANNELS, type Channel } from '../resources/enums.js';
import { AuthError, UsageError } from '../../errors.js';
import { oneOf } from '../../util/parse.js';
import { parseServiceUrl, SETTING_KEYS } from './keys.js';
import { configDir, SETTINGS_FILE } from './paths.js';
import { checkProfileName, getPath, readProfileCredentials, readProfileSettings, type ProfileData } from './store.js';

export type Source = 'flag' | 'env' | 'profile' | 'default';

export interface Resolved<T> {
  value: T;
  source: Source;
}

/**
 * The effective configuration of one invocation. Precedence everywhere: flag > environment > profile > default.
 * Files are read lazily, once each: settings on the first setting asked for (every command asks for `output`
 * unless --json is given), credentials only when a key or secret is needed.
 */
export class Config {
  readonly dir: string;
  readonly profile: string;
  readonly profileSource: Source;
  private settingsCache: ProfileData | undefined;
  private credentialsCache: ProfileData | undefined;

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly flags: { profile?: string; baseUrl?: string },
  ) {
    this.dir = configDir(env);
    if (flags.profile) {
      this.profile = checkProfileName(flags.profile);
      this.profileSource = 'flag';
    } else if (env.SIMJOB_PROFILE) {
      this.profile = checkProfileName(env.SIMJOB_PROFILE);
      this.profileSource = 'env';
    } else {
      this.profile = 'default';
      this.profileSource = 'default';
    }
  }

  get settings(): ProfileData {
    this.settingsCache ??= readProfileSettings(this.dir, this.profile);
    return this.settingsCache;
  }

  private get credentials(): ProfileData {
    this.credentialsCache ??= readProfileCredentials(this.dir, this.profile);
    return this.credentialsCache;
  }

  /**
   * A setting of the active profile, or undefined. A value `simjob config set` would refuse (config.json edited by
   * hand) is a usage error that names the setting and its fix, not a puzzle further down.
   */
  setting(key: string): unknown {
    const value = getPath(this.settings, key);
    if (value !== undefined) this.checkStored(key, value);
    return value;
  }

  /** A setting as stored, unchecked: `config get` and `config list` show even a broken value, so it can be fixed. */
  storedSetting(key: string): unknown {
    return getPath(this.settings, key);
  }

  private checkStored(key: string, value: unknown): void {
    const known = SETTING_KEYS.find((k) => k.name === key);
    if (!known) return;
    try {
      if (typeof value !== 'string' && typeof value !== 'number')
        throw new UsageError(`${key} must be a single value (got ${JSON.stringify(value)}).`);
      known.parse(String(value));
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      throw new UsageError(
        `In ${join(this.dir, SETTINGS_FILE)} (profile "${this.profile}"): ${error.message.replace(/\.$/, '')}.`,
        `Run \`simjob config set ${key} <value>${this.profileFlag()}\` or \`simjob config unset ${key}${this.profileFlag()}\`.`,
      );
    }
  }

  stringSetting(key: string): string | undefined {
    const value = this.setting(key);
    return typeof value === 'string' && value !== '' ? value : undefined;
  }

  /** The default build channel: setting() has checked it with the parser `config set` uses, so it is one. */
  channelSetting(): Channel | undefined {
    const value = this.stringSetting('channel');
    return value === undefined ? undefined : oneOf('channel', CHANNELS)(value);
  }

  private profileFlag(): string {
    return this.profileSource === 'default' ? '' : ` --profile ${this.profile}`;
  }

  baseUrl(): Resolved<string> {
    if (this.flags.baseUrl) return { value: parseServiceUrl(this.flags.baseUrl, '--base-url'), source: 'flag' };
    if (this.env.SIMJOB_BASE_URL)
      return { value: parseServiceUrl(this.env.SIMJOB_BASE_URL, 'SIMJOB_BASE_URL'), source: 'env' };
    const stored = this.storedBaseUrl();
    if (stored !== undefined) {
      const fix = (root: string) => `Run \`simjob config set base_url ${root}${this.profileFlag()}\`.`;
      return {
        value: parseServiceUrl(String(stored), `base_url of profile "${this.profile}"`, fix),
        source: 'profile',
      };
    }
    throw new UsageError(
      'No API base URL is set.',
      `Run \`simjob config set base_url https://…${this.profileFlag()}\`, set SIMJOB_BASE_URL, or pass --base-url.`,
    );
  }

  /** The base URL, or undefined when none is set anywhere (`simjob login` works without one); a bad one throws. */
  baseUrlIfSet(): Resolved<string> | undefined {
    if (!this.flags.baseUrl && !this.env.SIMJOB_BASE_URL && this.storedBaseUrl() === undefined) return undefined;
    return this.baseUrl();
  }

  /** The profile's base_url as stored, unchecked: baseUrl() checks it itself, so a stored …/v1 gets the exact fix. */
  private storedBaseUrl(): unknown {
    const stored = this.storedSetting('base_url');
    return stored === '' ? undefined : stored;
  }

  apiKey(): Resolved<string> {
    const fromEnv = this.env.SIMJOB_API_KEY;
    if (fromEnv !== undefined && fromEnv !== '') return { value: checkKey(fromEnv, 'SIMJOB_API_KEY'), source: 'env' };
    const stored = this.credentials.api_key;
    if (typeof stored === 'string' && stored !== '') return { value: stored, source: 'profile' };
    throw new AuthError(
      `No API key for profile "${this.profile}".`,
      `Run \`simjob login${this.profileFlag()}\` or set SIMJOB_API_KEY.`,
    );
  }

  /** The stored key only (not the environment), for `simjob login --status` and `doctor`. */
  hasStoredKey(): boolean {
    return typeof this.credentials.api_key === 'string' && this.credentials.api_key !== '';
  }

  /** The signing secret for local webhook deliveries: SIMJOB_WEBHOOK_SECRET, else the profile's credentials. */
  webhookSecret(): string | undefined {
    const fromEnv = this.env.SIMJOB_WEBHOOK_SECRET;
    if (fromEnv) return fromEnv;
    const stored = this.credentials.webhook_secret;
    return typeof stored === 'string' && stored !== '' ? stored : undefined;
  }
}

/** Keys are opaque, but a key with spaces or control characters is always a copy-paste accident. */
export function checkKey(key: string, source: string): string {
  const trimmed = key.trim();
  if (!trimmed)
    throw new AuthError(`The API key from ${source} is empty.`, 'Run `simjob login` or set SIMJOB_API_KEY.');
  if (!/^[\x21-\x7e]+$/.test(trimmed)) {
    throw new AuthError(
      `The API key from ${source} contains spaces or non-printable characters.`,
      'Copy the key again from the dashboard (Clients & Keys).',
    );
  }
  return trimmed;
}
