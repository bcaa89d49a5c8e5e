import { EXIT_CODE_HELP } from '../errors.js';

/** `simjob help environment` and `simjob help exit-codes`: reference pages that are not commands. */
export const ENVIRONMENT_HELP: ReadonlyArray<[string, string]> = [
  ['SIMJOB_API_KEY', 'API key; overrides the stored key of the active profile (the CI way to authenticate).'],
  ['SIMJOB_BASE_URL', "API base URL; overrides the profile's base_url (a --base-url flag overrides this)."],
  ['SIMJOB_PROFILE', 'Config profile to use when --profile is not given (default: "default").'],
  [
    'SIMJOB_CONFIG_DIR',
    'Where config.json and credentials.json live (default: $XDG_CONFIG_HOME/simjob or ~/.config/simjob; %APPDATA%\\simjob on Windows).',
  ],
  [
    'SIMJOB_DATA_DIR',
    'Where local jobs live (default: $XDG_DATA_HOME/simjob or ~/.local/share/simjob; ~/Library/Application Support/simjob on macOS; %LOCALAPPDATA%\\simjob on Windows).',
  ],
  [
    'SIMJOB_CACHE_DIR',
    'Where a --catalog URL is kept once fetched; safe to delete (default: $XDG_CACHE_HOME/simjob or ~/.cache/simjob; ~/Library/Caches/simjob on macOS; %LOCALAPPDATA%\\simjob\\Cache on Windows).',
  ],
  ['SIMJOB_SIMC', 'Path of the local simc binary (after --simc, before config and PATH).'],
  [
    'SIMJOB_SIMC_ENV',
    "More variables to pass to a local simc, comma-separated; NAME_* passes every name starting with NAME_ (simc otherwise gets only PATH, HOME, the locale, TZ and the temp folder: never simjob's keys or secrets).",
  ],
  [
    'SIMJOB_LOCAL_CONCURRENCY',
    "Jobs the background worker runs at once, over the local.concurrency setting: the library's local client sets it for the worker it starts.",
  ],
  ['SIMJOB_PROVIDER_CLIENT_ID', 'Data-provider client id for armory= imports; sent with the job only, never stored.'],
  ['SIMJOB_PROVIDER_CLIENT_SECRET', 'Its secret; must be set together with SIMJOB_PROVIDER_CLIENT_ID.'],
  ['SIMJOB_WEBHOOK_SECRET', 'Webhook signing secret for `webhook verify`, `webhook listen` and local deliveries.'],
  ['SIMJOB_WEBHOOK_URL', 'Receiver URL for webhook events of local jobs (overrides config webhook.url).'],
  ['SIMJOB_WEBHOOK_SIGNATURE', 'X-Service-Signature value for `webhook verify` when --signature is not given.'],
  ['SIMJOB_DEBUG', '1 logs each HTTP request and response; "api" adds redacted headers and bodies.'],
  [
    'SIMJOB_RETRY_BUDGET',
    'How long transient failures (no answer, 408, 429, 5xx) are retried, e.g. 5m (default 2m; --timeout wins).',
  ],
  [
    'SIMJOB_HTTP_TIMEOUT',
    'Inactivity limit of an API request: no headers or body bytes for this long fails it (default 30s).',
  ],
  ['SIMJOB_HTTP_DEADLINE', 'Total limit of one API answer, headers and body (default 2m).'],
  ['SIMJOB_DOWNLOAD_DEADLINE', 'Total limit of one artifact download (default 1h).'],
  ['NODE_DISABLE_COMPILE_CACHE', "Any value turns off Node's compile cache (Node 22.1+), which speeds up start-up."],
  ['NO_COLOR', 'Any non-empty value turns colour off.'],
  ['FORCE_COLOR', '0-3 forces the colour level (beats NO_COLOR; --no-color beats it).'],
  [
    'TERM, COLORTERM',
    'TERM=dumb turns colour and spinners off; otherwise they pick the colour depth (truecolor, 256).',
  ],
  ['CI', 'When set, no spinners: one plain line per change of state.'],
  [
    'HTTPS_PROXY, HTTP_PROXY, NO_PROXY',
    'Proxy for requests to the service and artifact hosts (lower-case names work too).',
  ],
  ['BROWSER', "The browser `report --open` starts (a command, with arguments); else the system's default browser."],
  ['DISPLAY, WAYLAND_DISPLAY', 'On Linux, `report --open` uses xdg-open only when one is set (a desktop session).'],
];

/** A reference page: a title and its rows (a name and what it means), printed as a table or, with --json, as objects. */
export interface HelpTopic {
  title: string;
  /** The JSON name of a row's first column. */
  key: 'variable' | 'code';
  rows(): ReadonlyArray<readonly [string, string]>;
}

export const HELP_TOPICS: Record<string, HelpTopic> = {
  environment: { title: 'Environment variables', key: 'variable', rows: () => ENVIRONMENT_HELP },
  'exit-codes': {
    title: 'Exit codes',
    key: 'code',
    rows: () => EXIT_CODE_HELP.map(([code, text]) => [String(code), text]),
  },
};

export function topicText(topic: HelpTopic): string {
  const rows = topic.rows();
  const width = Math.max(...rows.map(([k]) => k.length));
  return `${topic.title}:\n${rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`).join('\n')}\n`;
}

/** `help exit-codes --json`: `[{ "code": 0, "meaning": "…" }, …]`; `help environment --json`: `{ "variable": … }`. */
export function topicJson(topic: HelpTopic): object[] {
  return topic.rows().map(([k, meaning]) => ({ [topic.key]: topic.key === 'code' ? Number(k) : k, meaning }));
}
