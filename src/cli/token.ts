// `token`: the minute-to-first-call path. Drives the real consent flow over HTTP against a running
// service (the test handle's flow, src/handle/consent.ts) and prints the token response JSON on
// stdout.
//
//   node --experimental-strip-types src/main.ts token --user user-aiko --scope calendar --offline
//
// Exit codes: 0 success, 1 service unreachable or an OAuth error, 2 bad arguments.

import { DEFAULT_CLIENT, expandScopes, requestToken } from '../handle/consent.ts';

export const TOKEN_USAGE = `Usage: node --experimental-strip-types src/main.ts token [options]

Runs the consent flow of a running service for one test user and prints the token response.

  --user <id>            test user (default: the first one on the consent page)
  --scope <scopes>       space- or comma-separated; short names get the scope prefix
                         (calendar, calendar.readonly, ...); openid, email, profile stay
                         (default: calendar)
  --offline              also issue a refresh token (access_type=offline)
  --url <base>           the service (default: $CALENDAR_EMULATOR_URL, else http://127.0.0.1:8080)
  --workspace <id>       a workspace of the service (its /w/<id>/ prefix) instead of the root
  --field <name>         print only this field of the token response (access_token, ...)
  --client-id <id>       default ${DEFAULT_CLIENT.id}
  --client-secret <s>    default ${DEFAULT_CLIENT.secret}
  --redirect-uri <uri>   default ${DEFAULT_CLIENT.redirectUri}
  --help                 print this help
`;

class UsageError extends Error {}

const VALUE_FLAGS = {
  '--user': 'user',
  '--scope': 'scope',
  '--url': 'url',
  '--client-id': 'clientId',
  '--client-secret': 'clientSecret',
  '--redirect-uri': 'redirectUri',
  '--field': 'field',
  '--workspace': 'workspace',
} as const;

type ValueKey = (typeof VALUE_FLAGS)[keyof typeof VALUE_FLAGS];

function parseArguments(argv: string[], defaultUrl: string | undefined): { values: Partial<Record<ValueKey, string>>; offline: boolean } | 'help' {
  const values: Partial<Record<ValueKey, string>> = {};
  let offline = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--help' || arg === '-h') return 'help';
    if (arg === '--offline') {
      offline = true;
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const key = (VALUE_FLAGS as Record<string, ValueKey>)[name];
    if (!key) throw new UsageError(`unknown option ${JSON.stringify(arg)} (see token --help)`);
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || value === '') throw new UsageError(`option ${name} needs a value`);
    values[key] = value;
  }
  const url = values.url ?? defaultUrl ?? 'http://127.0.0.1:8080';
  if (!/^https?:\/\/[^/]+\/?$/.test(url)) throw new UsageError(`--url must be a base URL such as http://127.0.0.1:8080, not ${JSON.stringify(url)}`);
  if (values.scope !== undefined && expandScopes(values.scope).length === 0) throw new UsageError('--scope needs at least one scope');
  // docs/workspaces.md: a workspace's ids are 1-40 characters of a-z, 0-9 and '-', so they need no escaping.
  if (values.workspace !== undefined && !/^[a-z0-9-]{1,40}$/.test(values.workspace)) throw new UsageError(`--workspace must be a workspace id (a-z, 0-9, -), not ${JSON.stringify(values.workspace)}`);
  const base = url.replace(/\/$/, '');
  return { values: { ...values, url: values.workspace === undefined ? base : `${base}/w/${values.workspace}` }, offline };
}

/** `defaultUrl`: the service's URL from the environment (CALENDAR_EMULATOR_URL), when set. */
export async function runTokenCommand(argv: string[], defaultUrl?: string): Promise<number> {
  let parsed;
  try {
    parsed = parseArguments(argv, defaultUrl);
  } catch (error) {
    process.stderr.write(`error: ${(error as Error).message}\n`);
    return 2;
  }
  if (parsed === 'help') {
    process.stdout.write(TOKEN_USAGE);
    return 0;
  }
  const { values, offline } = parsed;
  try {
    const token = await requestToken({
      baseUrl: values.url as string,
      user: values.user,
      scopes: expandScopes(values.scope ?? 'calendar'),
      offline,
      clientId: values.clientId,
      clientSecret: values.clientSecret,
      redirectUri: values.redirectUri,
    });
    if (values.field === undefined) {
      process.stdout.write(`${JSON.stringify(token, null, 2)}\n`);
      return 0;
    }
    const field = (token as unknown as Record<string, unknown>)[values.field];
    if (field === undefined) {
      process.stderr.write(`error: the token response has no field ${JSON.stringify(values.field)}; it has ${Object.keys(token).join(', ')}\n`);
      return 1;
    }
    process.stdout.write(`${String(field)}\n`);
    return 0;
  } catch (error) {
    // One line on stderr, whatever failed; FlowError messages are already worded for people.
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
