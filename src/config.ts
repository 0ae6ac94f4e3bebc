// Options from flags and environment (CONTRACT §1). The only module that reads process.env.

import { fileURLToPath } from 'node:url';

export interface Options {
  host: string;
  port: number;
  db: string;
  /** A fixture file path, or a fixture object (in-process use through src/index.ts). */
  fixture: string | object;
  /** Public base URL without a trailing slash; derived from host and port when absent. */
  baseUrl: string | undefined;
  /** How many requests the request journal keeps (CONTRACT §9); 0 turns it off. */
  journalSize: number;
}

// fileURLToPath, not .pathname: an install folder whose name has a space would be percent-encoded.
export const DEFAULT_FIXTURE = fileURLToPath(new URL('../fixtures/default.json', import.meta.url));

export const DEFAULTS: Options = {
  host: '127.0.0.1',
  port: 8080,
  db: ':memory:',
  fixture: DEFAULT_FIXTURE,
  baseUrl: undefined,
  journalSize: 10_000,
};

/** The largest --journal-size: a million entries is already hundreds of megabytes of bodies. */
export const MAX_JOURNAL_SIZE = 1_000_000;

export class OptionError extends Error {}

export type Command =
  | { kind: 'serve'; options: Options }
  | { kind: 'help' }
  | { kind: 'version' };

type OptionKey = 'host' | 'port' | 'db' | 'fixture' | 'baseUrl' | 'journalSize';

const FLAGS: Record<string, { key: OptionKey; env: string }> = {
  '--host': { key: 'host', env: 'HOST' },
  '--port': { key: 'port', env: 'PORT' },
  '--db': { key: 'db', env: 'CALENDAR_DB' },
  '--fixture': { key: 'fixture', env: 'CALENDAR_FIXTURE' },
  '--base-url': { key: 'baseUrl', env: 'BASE_URL' },
  '--journal-size': { key: 'journalSize', env: 'CALENDAR_JOURNAL_SIZE' },
};

export const USAGE = `Usage: node --experimental-strip-types src/main.ts [options]
       npx tsx src/main.ts [options]
       node --experimental-strip-types src/main.ts token --user <id> [--scope <scopes>] [--offline] [--url <base>]

Local Google Calendar API v3 emulator with a built-in OAuth 2.0 authorization server.

Options (flags win over environment variables):
  --host <host>        HOST              interface to bind (default 127.0.0.1)
  --port <port>        PORT              TCP port, 0 picks a free one (default 8080)
  --db <path>          CALENDAR_DB       :memory: or a SQLite file path (default :memory:)
  --fixture <path>     CALENDAR_FIXTURE  startup fixture (default fixtures/default.json)
  --base-url <url>     BASE_URL          public base URL (default http://{host}:{port})
  --journal-size <n>   CALENDAR_JOURNAL_SIZE
                                         requests the journal keeps, 0 turns it off (default 10000)
  --help                                 print this help and exit
  --version                              print the version and exit
`;

/** Parses argv (without node and script) and the environment into a command. */
export function parseCommandLine(argv: string[], env: NodeJS.ProcessEnv = process.env): Command {
  const raw: Partial<Record<OptionKey, string>> = {};
  for (const spec of Object.values(FLAGS)) {
    const value = env[spec.env];
    if (value !== undefined && value !== '') raw[spec.key] = value;
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--help' || arg === '-h') return { kind: 'help' };
    if (arg === '--version') return { kind: 'version' };
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const spec = FLAGS[name];
    if (!spec) throw new OptionError(`unknown option ${JSON.stringify(arg)} (see --help)`);
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || value === '') throw new OptionError(`option ${name} needs a value`);
    raw[spec.key] = value;
  }
  return { kind: 'serve', options: resolveOptions(raw) };
}

/** Validates option values given as strings (CLI) or as an object (src/index.ts). */
export function resolveOptions(raw: {
  host?: string | undefined;
  port?: string | number | undefined;
  db?: string | undefined;
  fixture?: string | object | undefined;
  baseUrl?: string | undefined;
  journalSize?: string | number | undefined;
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
  return { host, port, db, fixture: raw.fixture ?? DEFAULTS.fixture, baseUrl, journalSize };
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
