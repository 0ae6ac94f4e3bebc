// Options from flags and environment (CONTRACT §1). The only module that reads process.env.

export interface Options {
  host: string;
  port: number;
  db: string;
  /** A fixture file path, or a fixture object (in-process use through src/index.ts). */
  fixture: string | object;
  /** Public base URL without a trailing slash; derived from host and port when absent. */
  baseUrl: string | undefined;
}

export const DEFAULT_FIXTURE = new URL('../fixtures/default.json', import.meta.url).pathname;

export const DEFAULTS: Options = {
  host: '127.0.0.1',
  port: 8080,
  db: ':memory:',
  fixture: DEFAULT_FIXTURE,
  baseUrl: undefined,
};

export class OptionError extends Error {}

export type Command =
  | { kind: 'serve'; options: Options }
  | { kind: 'help' }
  | { kind: 'version' };

const FLAGS: Record<string, { key: 'host' | 'port' | 'db' | 'fixture' | 'baseUrl'; env: string }> = {
  '--host': { key: 'host', env: 'HOST' },
  '--port': { key: 'port', env: 'PORT' },
  '--db': { key: 'db', env: 'CALENDAR_DB' },
  '--fixture': { key: 'fixture', env: 'CALENDAR_FIXTURE' },
  '--base-url': { key: 'baseUrl', env: 'BASE_URL' },
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
  --help                                 print this help and exit
  --version                              print the version and exit
`;

/** Parses argv (without node and script) and the environment into a command. */
export function parseCommandLine(argv: string[], env: NodeJS.ProcessEnv = process.env): Command {
  const raw: Partial<Record<'host' | 'port' | 'db' | 'fixture' | 'baseUrl', string>> = {};
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
}): Options {
  const port = raw.port === undefined ? DEFAULTS.port : Number(raw.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535 || (typeof raw.port === 'string' && !/^\d+$/.test(raw.port))) {
    throw new OptionError(`--port must be an integer from 0 to 65535, got ${JSON.stringify(raw.port)}`);
  }
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
  return { host, port, db, fixture: raw.fixture ?? DEFAULTS.fixture, baseUrl };
}

/** The base URL once the real port is known. */
export function baseUrlFor(options: Options, port: number): string {
  if (options.baseUrl) return options.baseUrl;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return `http://${host}:${port}`;
}
