// The five quickstart programs of docs/quickstarts.md and how each is run here: which client
// libraries it needs (Debian packages, or npm into a scratch folder outside the repository, never
// a project dependency), how to tell that they are missing, and the command that runs the same
// file docs/quickstarts.md shows.

import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const QUICKSTARTS_DIR = new URL('.', import.meta.url).pathname;

export interface Command {
  argv: [string, ...string[]];
  cwd: string;
  env: Record<string, string>;
  /** How this run differs from the setup docs/quickstarts.md describes, printed beside the result. */
  note?: string;
}

export interface Quickstart {
  language: string;
  /** The program, relative to test/quickstarts/; docs/quickstarts.md shows it verbatim. */
  file: string;
  /** Why this client cannot run on this machine, or undefined when it can. */
  unavailable(): string | undefined;
  command(): Command;
}

/** Where .ci/run installs googleapis and google-auth-library (outside the repository). */
export const NODE_CLIENT_DIR = process.env.QUICKSTART_NODE_DIR ?? join(homedir(), '.cache', 'local-calendar-emulator', 'quickstart-node');

/** Debian's jars of the Java client (libgoogle-api-client-java and what it depends on). */
const JAVA_JARS = [
  'google-api-client',
  'google-http-client',
  'google-http-client-gson',
  'google-oauth-client',
  'gson',
  'guava',
  'opencensus-api',
  'opencensus-contrib-http-util',
  'grpc-context',
].map((name) => `/usr/share/java/${name}.jar`);

const PYTHON_IMPORTS = 'import google_auth_oauthlib.flow, googleapiclient.discovery';
/** Exits 3 with the version when google-api-python-client predates 2.0's build(client_options=...). */
const PYTHON_BUILD_CHECK = `
import inspect, sys, googleapiclient, googleapiclient.discovery
if 'client_options' not in inspect.signature(googleapiclient.discovery.build).parameters:
    print(googleapiclient.__version__)
    sys.exit(3)
`;

/** The hosted API's discovery document, where a copy may sit beside the repository's clone (it is not part of the repository). */
const CALENDAR_DISCOVERY_DOCUMENT = new URL('../../../shared/calendar-v3/calendar-v3-discovery.json', import.meta.url).pathname;

/** Debian 12's python3-googleapi is 1.7.12: its build() has no client_options and downloads the
 *  discovery document. There, python/debian-compat/ gives it 2.x's build() from that document. */
function pythonClientVersion(): { old: string } | 'current' {
  const result = spawnSync('/usr/bin/python3', ['-c', PYTHON_BUILD_CHECK], { encoding: 'utf8', timeout: 30_000 });
  return result.status === 3 ? { old: result.stdout.trim() } : 'current';
}

/** Debian's Go packages live in a GOPATH tree; the module proxy is not needed. */
const GOPATH = '/usr/share/gocode';

export const QUICKSTARTS: readonly Quickstart[] = [
  {
    language: 'node',
    file: 'node/quickstart.mjs',
    unavailable: () =>
      existsSync(join(NODE_CLIENT_DIR, 'node_modules', 'googleapis', 'package.json')) &&
      existsSync(join(NODE_CLIENT_DIR, 'node_modules', 'google-auth-library', 'package.json'))
        ? undefined
        : `googleapis and google-auth-library are not installed in ${NODE_CLIENT_DIR}`,
    command: () => {
      // ES modules resolve packages from the importing file's folder, so the program runs
      // from the folder that holds them, as it would in the reader's own project.
      copyFileSync(join(QUICKSTARTS_DIR, 'node', 'quickstart.mjs'), join(NODE_CLIENT_DIR, 'quickstart.mjs'));
      return { argv: [process.execPath, 'quickstart.mjs'], cwd: NODE_CLIENT_DIR, env: {} };
    },
  },
  {
    language: 'python',
    file: 'python/quickstart.py',
    unavailable: () => {
      const missing = probe(['/usr/bin/python3', '-c', PYTHON_IMPORTS]);
      if (missing !== undefined) return missing;
      const client = pythonClientVersion();
      if (client === 'current' || existsSync(CALENDAR_DISCOVERY_DOCUMENT)) return undefined;
      return `google-api-python-client ${client.old} predates 2.0 (no client_options, no bundled discovery documents) and ${CALENDAR_DISCOVERY_DOCUMENT} is missing`;
    },
    // BROWSER=true: webbrowser.open runs `true <url>` instead of looking for a desktop browser;
    // the runner plays the browser from the printed URL.
    command: () => {
      const argv: Command['argv'] = ['/usr/bin/python3', 'quickstart.py'];
      const cwd = join(QUICKSTARTS_DIR, 'python');
      const env = { PYTHONUNBUFFERED: '1', BROWSER: 'true' };
      const client = pythonClientVersion();
      if (client === 'current') return { argv, cwd, env };
      return {
        argv,
        cwd,
        env: { ...env, PYTHONPATH: join(cwd, 'debian-compat'), CALENDAR_DISCOVERY_DOCUMENT },
        note: `google-api-python-client ${client.old} given 2.x's build() by python/debian-compat/`,
      };
    },
  },
  {
    language: 'go',
    file: 'go/quickstart.go',
    unavailable: () =>
      probe(['go', 'version']) ??
      (existsSync(join(GOPATH, 'src', 'google.golang.org', 'api', 'calendar', 'v3')) ? undefined : `google.golang.org/api/calendar/v3 is not under ${GOPATH}`),
    command: () => ({
      argv: ['go', 'run', 'quickstart.go'],
      cwd: join(QUICKSTARTS_DIR, 'go'),
      env: { GO111MODULE: 'off', GOPATH, GOFLAGS: '', GOPROXY: 'off' },
    }),
  },
  {
    language: 'java',
    file: 'java/Quickstart.java',
    unavailable: () => probe(['javac', '-version']) ?? JAVA_JARS.filter((jar) => !existsSync(jar)).map((jar) => `${jar} is missing`)[0],
    // The JDK's source-file mode compiles and runs the one file.
    command: () => ({
      argv: ['java', '-cp', JAVA_JARS.join(':'), 'Quickstart.java'],
      cwd: join(QUICKSTARTS_DIR, 'java'),
      env: {},
    }),
  },
  {
    language: 'ruby',
    file: 'ruby/quickstart.rb',
    unavailable: () => probe(['ruby', '-e', 'require "google/apis/calendar_v3"; require "signet/oauth_2/client"']),
    command: () => ({ argv: ['ruby', 'quickstart.rb'], cwd: join(QUICKSTARTS_DIR, 'ruby'), env: {} }),
  },
];

/** Runs a check command; its failure, as one line, or undefined when it succeeded. */
function probe(argv: [string, ...string[]]): string | undefined {
  const [command, ...args] = argv;
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: 30_000 });
  if (result.error) return `${command}: ${result.error.message}`;
  if (result.status === 0) return undefined;
  const lastLine = result.stderr.trim().split('\n').pop() ?? '';
  return `${command}: ${lastLine}`;
}
