// Options from flags and environment (docs/cli.md). The only module that reads process.env.

import { fileURLToPath } from 'node:url';

export interface Options {
  host: string;
  port: number;
  db: string;
  /** A fixture file path, or a fixture object (in-process use through src/index.ts). */
  fixture: string | object;
  /** Public base URL without a trailing slash; derived from host and port when absent. */
  baseUrl: string | undefined;
  /** How many requests the request journal keeps (docs/journal.md); 0 turns it off. */
  journalSize: number;
  /** Host values the DNS-rebinding check accepts besides the service's own names: `name` or `name:port`, lower case. */
  allowedHosts: string[];
  /** One stderr line per answered request (--log-requests). */
  logRequests: boolean;
  /** Serve Google's Calendar MCP server at /mcp/v1 (--mcp, docs/mcp.md). */
  mcp: boolean;
  /** Workspaces besides the root (docs/workspaces.md). */
  maxWorkspaces: number;
  /** Enforce the per-minute usage limits below (--quotas, docs/usage-limits.md). */
  quotas: boolean;
  quotaUserPerMinute: number;
  quotaProjectPerMinute: number;
}

// fileURLToPath, not .pathname: an install folder whose name has a space would be percent-encoded.
export const DEFAULT_FIXTURE = fileURLToPath(new URL('../../fixtures/default.json', import.meta.url));

export const DEFAULTS: Options = {
  host: '127.0.0.1',
  port: 8080,
  db: ':memory:',
  fixture: DEFAULT_FIXTURE,
  baseUrl: undefined,
  journalSize: 10_000,
  allowedHosts: [],
  logRequests: false,
  mcp: false,
  maxWorkspaces: 1_000,
  quotas: false,
  // Google's Calendar API limits: 600 requests a minute per user per project, 10,000 per project
  // (https://developers.google.com/workspace/calendar/api/guides/quota).
  quotaUserPerMinute: 600,
  quotaProjectPerMinute: 10_000,
};

const MAX_QUOTA = 1_000_000_000;

/** The largest --journal-size: a million entries is already hundreds of megabytes of bodies. */
export const MAX_JOURNAL_SIZE = 1_000_000;

/** The largest --max-workspaces. */
export const MAX_WORKSPACES = 100_000;

/** The environment variable that names a running service's base URL, for every part of the project. */
export const URL_VARIABLE = 'CALENDAR_EMULATOR_URL';

/** The running service's URL as the environment names it, if it does (`token`'s default --url). */
export function serviceUrlFromEnvironment(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const url = env[URL_VARIABLE];
  return url === undefined || url === '' ? undefined : url;
}

export class OptionError extends Error {}

/** What only the command line decides: the service started in-process has none of it. */
export interface CliSettings {
  /** Leave out the stderr banner. */
  quiet: boolean;
  /** Write the workspace export (docs/journal.md#workspace-export) to this file before stopping. */
  exportOnExit: string | undefined;
}

export type Command =
  | { kind: 'serve'; options: Options; cli: CliSettings }
  | { kind: 'exec'; options: Options; cli: CliSettings; command: string[] }
  | { kind: 'help' }
  | { kind: 'version' };

type OptionKey =
  | 'host' | 'port' | 'db' | 'fixture' | 'baseUrl' | 'journalSize' | 'allowedHosts' | 'logRequests' | 'mcp'
  | 'maxWorkspaces' | 'quotas' | 'quotaUserPerMinute' | 'quotaProjectPerMinute' | 'quiet' | 'exportOnExit';

interface FlagSpec {
  key: OptionKey;
  env?: string;
  /** A switch takes no value: present is on (its variable: `1` or `true`). */
  switch?: true;
}

const FLAGS: Record<string, FlagSpec> = {
  '--host': { key: 'host', env: 'HOST' },
  '--port': { key: 'port', env: 'PORT' },
  '--db': { key: 'db', env: 'CALENDAR_DB' },
  '--fixture': { key: 'fixture', env: 'CALENDAR_FIXTURE' },
  '--base-url': { key: 'baseUrl', env: 'BASE_URL' },
  '--journal-size': { key: 'journalSize', env: 'CALENDAR_JOURNAL_SIZE' },
  '--allowed-hosts': { key: 'allowedHosts', env: 'CALENDAR_ALLOWED_HOSTS' },
  '--log-requests': { key: 'logRequests', env: 'CALENDAR_LOG_REQUESTS', switch: true },
  '--mcp': { key: 'mcp', env: 'CALENDAR_MCP', switch: true },
  '--max-workspaces': { key: 'maxWorkspaces', env: 'CALENDAR_MAX_WORKSPACES' },
  '--quotas': { key: 'quotas', env: 'CALENDAR_QUOTAS', switch: true },
  '--quota-user-per-minute': { key: 'quotaUserPerMinute', env: 'CALENDAR_QUOTA_USER_PER_MINUTE' },
  '--quota-project-per-minute': { key: 'quotaProjectPerMinute', env: 'CALENDAR_QUOTA_PROJECT_PER_MINUTE' },
  '--quiet': { key: 'quiet', switch: true },
  '--export-on-exit': { key: 'exportOnExit' },
};

export const USAGE = `Usage: local-calendar-emulator [serve] [options]
       local-calendar-emulator exec [options] -- <command> [args...]
       local-calendar-emulator token [--user <id>] [--scope <scopes>] [--offline] [--field <name>] [--url <base>]
(from a source checkout: node --experimental-strip-types src/main.ts ..., or npx tsx src/main.ts ...)

Local Google Calendar API v3 emulator with a built-in OAuth 2.0 authorization server.

Commands:
  serve                  run the service until SIGINT or SIGTERM (the default)
  exec -- <command>      start the service (port 0 unless --port), run the command with
                         ${URL_VARIABLE} set to its base URL, stop, exit with the command's status
  token                  run the consent flow of a running service and print a token (token --help)

Options (flags win over environment variables):
  --host <host>          HOST              interface to bind (default 127.0.0.1)
  --port <port>          PORT              TCP port, 0 picks a free one (default 8080)
  --db <path>            CALENDAR_DB       :memory: or a SQLite file path (default :memory:)
  --fixture <path>       CALENDAR_FIXTURE  startup fixture (default fixtures/default.json)
  --base-url <url>       BASE_URL          public base URL (default http://{host}:{port})
  --journal-size <n>     CALENDAR_JOURNAL_SIZE
                                           requests the journal keeps, 0 turns it off (default 10000)
  --allowed-hosts <list> CALENDAR_ALLOWED_HOSTS
                                           more Host names the management API and consent page
                                           accept, comma-separated: name or name:port (containers)
  --log-requests         CALENDAR_LOG_REQUESTS=1
                                           one stderr line per answered request (no query or body)
  --mcp                  CALENDAR_MCP=1    serve Google's Calendar MCP server at /mcp/v1
  --max-workspaces <n>   CALENDAR_MAX_WORKSPACES
                                           workspaces besides the root, /__svc/workspaces (default 1000)
  --quotas               CALENDAR_QUOTAS=1 enforce Google's per-minute usage limits (answers 403
                                           userRateLimitExceeded or 429 rateLimitExceeded)
  --quota-user-per-minute <n>  CALENDAR_QUOTA_USER_PER_MINUTE
                                           requests a minute per user per client (default 600)
  --quota-project-per-minute <n>  CALENDAR_QUOTA_PROJECT_PER_MINUTE
                                           requests a minute per client (default 10000)
  --export-on-exit <file>                  write the workspace export there before stopping
  --quiet                                  no banner on stderr after the Listening line
  --help                                   print this help and exit
  --version                                print the version and exit
`;

/** Parses argv (without node and script) and the environment into a command. */
export function parseCommandLine(argv: string[], env: NodeJS.ProcessEnv = process.env): Command {
  const raw: Partial<Record<OptionKey, string>> = {};
  for (const spec of Object.values(FLAGS)) {
    const value = spec.env === undefined ? undefined : env[spec.env];
    if (value === undefined || value === '') continue;
    if (spec.switch && !/^(1|true|0|false)$/i.test(value)) throw new OptionError(`${spec.env} must be 1 or 0, got ${JSON.stringify(value)}`);
    raw[spec.key] = spec.switch ? String(/^(1|true)$/i.test(value)) : value;
  }
  const subcommand = argv[0] === 'serve' || argv[0] === 'exec' ? argv[0] : 'serve';
  const rest = argv[0] === subcommand ? argv.slice(1) : argv;
  const separator = rest.indexOf('--');
  const flags = subcommand === 'exec' && separator !== -1 ? rest.slice(0, separator) : rest;
  for (let i = 0; i < flags.length; i++) {
    const arg = flags[i] as string;
    if (arg === '--help' || arg === '-h') return { kind: 'help' };
    if (arg === '--version') return { kind: 'version' };
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const spec = FLAGS[name];
    if (!spec) throw new OptionError(`unknown option ${JSON.stringify(arg)} (see --help)`);
    if (spec.switch) {
      if (eq > 0) throw new OptionError(`option ${name} takes no value`);
      raw[spec.key] = 'true';
      continue;
    }
    const value = eq > 0 ? arg.slice(eq + 1) : flags[++i];
    if (value === undefined || value === '') throw new OptionError(`option ${name} needs a value`);
    raw[spec.key] = value;
  }
  const cli: CliSettings = { quiet: raw.quiet === 'true', exportOnExit: raw.exportOnExit };
  if (subcommand === 'serve') return { kind: 'serve', options: resolveOptions(raw), cli };
  const command = separator === -1 ? [] : rest.slice(separator + 1);
  if (command.length === 0) throw new OptionError('exec needs a command after --, as in: exec -- npm test');
  // A test run wants a free port, not the one a developer's own service may hold.
  return { kind: 'exec', options: resolveOptions({ ...raw, port: flags.some((arg) => arg === '--port' || arg.startsWith('--port=')) ? raw.port : '0' }), cli, command };
}

/** Validates option values given as strings (CLI) or as an object (src/index.ts). */
export function resolveOptions(raw: {
  host?: string | undefined;
  port?: string | number | undefined;
  db?: string | undefined;
  fixture?: string | object | undefined;
  baseUrl?: string | undefined;
  journalSize?: string | number | undefined;
  allowedHosts?: string | readonly string[] | undefined;
  logRequests?: string | boolean | undefined;
  mcp?: string | boolean | undefined;
  maxWorkspaces?: string | number | undefined;
  quotas?: string | boolean | undefined;
  quotaUserPerMinute?: string | number | undefined;
  quotaProjectPerMinute?: string | number | undefined;
}): Options {
  const port = integerOption('--port', raw.port, DEFAULTS.port, 65535);
  const host = raw.host ?? DEFAULTS.host;
  if (host.trim() === '') throw new OptionError('--host must not be empty');
  const db = raw.db ?? DEFAULTS.db;
  let baseUrl: string | undefined;
  if (raw.baseUrl !== undefined) {
    let url: URL;
    try {
      url = new URL(raw.baseUrl);
    } catch {
      throw new OptionError(`--base-url must be an absolute http: or https: URL, got ${JSON.stringify(raw.baseUrl)}`);
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash || url.username || url.password) {
      throw new OptionError(`--base-url must be an absolute http: or https: URL without query, fragment or credentials, got ${JSON.stringify(raw.baseUrl)}`);
    }
    baseUrl = url.href.replace(/\/+$/, '');
  }
  const journalSize = integerOption('--journal-size', raw.journalSize, DEFAULTS.journalSize, MAX_JOURNAL_SIZE);
  return {
    host,
    port,
    db,
    fixture: raw.fixture ?? DEFAULTS.fixture,
    baseUrl,
    journalSize,
    allowedHosts: allowedHostsOption(raw.allowedHosts),
    logRequests: raw.logRequests === true || raw.logRequests === 'true',
    mcp: raw.mcp === true || raw.mcp === 'true',
    maxWorkspaces: integerOption('--max-workspaces', raw.maxWorkspaces, DEFAULTS.maxWorkspaces, MAX_WORKSPACES),
    quotas: raw.quotas === true || raw.quotas === 'true',
    // Checked with or without --quotas, which alone decides whether they apply.
    quotaUserPerMinute: quotaOption('--quota-user-per-minute', raw.quotaUserPerMinute, DEFAULTS.quotaUserPerMinute),
    quotaProjectPerMinute: quotaOption('--quota-project-per-minute', raw.quotaProjectPerMinute, DEFAULTS.quotaProjectPerMinute),
  };
}

/** A per-minute limit: a whole number from 1 (0 would refuse every request). */
function quotaOption(flag: string, raw: string | number | undefined, fallback: number): number {
  const value = integerOption(flag, raw, fallback, MAX_QUOTA);
  if (value === 0) throw new OptionError(`${flag} must be an integer from 1 to ${MAX_QUOTA}, got ${JSON.stringify(raw)}`);
  return value;
}

// A Host value as a client sends it (RFC 9110 §7.2): a name or address, then an optional port.
const HOST_VALUE = /^(?:\[[0-9a-f:.]+\]|[a-z0-9._-]+)(?::\d{1,5})?$/;

function allowedHostsOption(raw: string | readonly string[] | undefined): string[] {
  if (raw === undefined) return [];
  const names = (typeof raw === 'string' ? raw.split(',') : raw).map((name) => name.trim().toLowerCase()).filter((name) => name !== '');
  for (const name of names) {
    if (!HOST_VALUE.test(name)) throw new OptionError(`--allowed-hosts takes host names, each optionally with :port, separated by commas; got ${JSON.stringify(name)}`);
  }
  return names;
}

/** A whole number from 0 to `max`, given as digits (CLI, environment) or a number (src/index.ts). */
function integerOption(flag: string, raw: string | number | undefined, fallback: number, max: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > max || (typeof raw === 'string' && !/^\d+$/.test(raw))) {
    throw new OptionError(`${flag} must be an integer from 0 to ${max}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

/** The base URL once the real port is known. */
export function baseUrlFor(options: Options, port: number): string {
  if (options.baseUrl) return options.baseUrl;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return `http://${host}:${port}`;
}
