// The test handle (README "Testing your app"): a few typed calls per test instead of hand-written
// HTTP. Every member is one call of the public HTTP API (the management API, the OAuth endpoints),
// so a handle behaves the same for a service started in this process, a `serve` process, a
// container or one workspace of any of them. It imports nothing of the service itself.

import { expandScopes, requestToken } from './consent.ts';
import type { TokenResponse } from './consent.ts';
import { callJson } from './http.ts';
import type {
  Channel,
  Checkpoint,
  Connection,
  Fault,
  FaultInput,
  Fixture,
  JournalEntry,
  LoadedCounts,
  OutboxFilter,
  OutboxMessage,
  RequestFilter,
  User,
} from './types.ts';

export interface TokenOptions {
  /** Test user id; default the first test user. */
  user?: string;
  /** Short names (`calendar`, `calendar.readonly`) or full scope URLs; default `['calendar']`. */
  scopes?: readonly string[];
  /** Also issue a refresh token (access_type=offline). */
  offline?: boolean;
  /** Default: the first client of the fixture this handle knows (see Handle.token). */
  clientId?: string;
  clientSecret?: string;
  redirectUri?: string;
}

export interface WorkspaceOptions {
  /** 1–40 characters of a-z, 0-9 and `-`; generated when absent. */
  id?: string;
  /** The fixture the workspace starts from (and its reset() returns to); default the startup fixture. */
  fixture?: Fixture;
  /** Copy another workspace's current data instead. */
  from?: string;
}

export interface Handle {
  /** The base URL: the service's, or a workspace's (`…/w/{id}`). */
  readonly url: string;
  /** Stops the service (start) or only forgets it (connect, workspace). */
  close(): Promise<void>;
  /**
   * Runs the real consent flow over HTTP and resolves to the token response. The client defaults
   * to the first client of the fixture this handle started, loaded or created its workspace with;
   * when the handle has not seen that fixture (connect), to fixtures/default.json's client.
   */
  token(options?: TokenOptions): Promise<TokenResponse>;
  /** Back to the startup fixture (a workspace: to the fixture it was created with). */
  reset(): Promise<void>;
  loadFixture(fixture: Fixture): Promise<LoadedCounts>;
  exportFixture(): Promise<Fixture>;
  readonly clock: {
    /** The service clock, RFC 3339. */
    now(): Promise<string>;
    set(iso: string): Promise<string>;
    advance(seconds: number): Promise<string>;
  };
  readonly faults: {
    add(rule: FaultInput): Promise<Fault>;
    list(): Promise<Fault[]>;
    remove(id: string): Promise<void>;
    clear(): Promise<void>;
  };
  /** The request journal, oldest first; every matching entry unless `limit` is given. */
  requests(filter?: RequestFilter): Promise<JournalEntry[]>;
  /** The e-mails Google would have sent, oldest first; every one unless `limit` is given. */
  outbox(filter?: OutboxFilter): Promise<OutboxMessage[]>;
  users(): Promise<User[]>;
  connections(): Promise<Connection[]>;
  revoke(connectionId: string): Promise<void>;
  channels(): Promise<Channel[]>;
  /** Creates a workspace of the same service and resolves to its handle. */
  workspace(options?: WorkspaceOptions): Promise<WorkspaceHandle>;
  checkpoint(name: string): Promise<Checkpoint>;
  restore(name: string): Promise<void>;
}

export interface WorkspaceHandle extends Handle {
  /** `{base_url}/w/{id}`: connect() to it gives a workspace handle again. */
  readonly url: `${string}/w/${string}`;
  readonly id: string;
  /** Deletes the workspace: its data goes and its channels stop. */
  delete(): Promise<void>;
}

/** What token() sends when not told otherwise. */
interface ClientDefaults {
  id: string;
  secret?: string;
  redirectUri?: string;
}

interface Setup {
  url: string;
  /** The service's own base URL, where /__svc/workspaces lives. */
  rootUrl: string;
  close(): Promise<void>;
  /** The first client of the fixture a reset returns to, when known. */
  startupClient: ClientDefaults | undefined;
}

/** The first client of a fixture, for token()'s defaults. */
export function firstClient(fixture: unknown): ClientDefaults | undefined {
  const client = (fixture as Fixture | null | undefined)?.clients?.[0];
  if (typeof client?.id !== 'string') return undefined;
  const defaults: ClientDefaults = { id: client.id };
  if (typeof client.secret === 'string') defaults.secret = client.secret;
  const redirectUri = client.redirectUris?.[0];
  if (typeof redirectUri === 'string') defaults.redirectUri = redirectUri;
  return defaults;
}

/** A handle for the service (or workspace) at `setup.url`. */
export function createHandle(setup: Setup): Handle {
  const { url, rootUrl } = setup;
  const call = (method: string, path: string, body?: unknown): Promise<any> => callJson(url, method, path, body);
  let client = setup.startupClient;
  const clockNow = (answer: { now: string }): string => answer.now;

  return {
    url,
    close: setup.close,
    token(options = {}) {
      const known = options.clientId === undefined || options.clientId === client?.id ? client : undefined;
      return requestToken({
        baseUrl: url,
        user: options.user,
        scopes: expandScopes(options.scopes ?? ['calendar']),
        offline: options.offline,
        clientId: options.clientId ?? known?.id,
        clientSecret: options.clientSecret ?? known?.secret,
        redirectUri: options.redirectUri ?? known?.redirectUri,
      });
    },
    async reset() {
      await call('POST', '/__svc/reset');
      client = setup.startupClient;
    },
    async loadFixture(fixture) {
      const answer = await call('POST', '/__svc/fixtures', fixture);
      client = firstClient(fixture);
      return answer.loaded;
    },
    exportFixture: () => call('GET', '/__svc/fixtures'),
    clock: {
      now: async () => clockNow(await call('GET', '/__svc/clock')),
      set: async (iso) => clockNow(await call('POST', '/__svc/clock', { now: iso })),
      advance: async (seconds) => clockNow(await call('POST', '/__svc/clock', { advanceSeconds: seconds })),
    },
    faults: {
      add: (rule) => call('POST', '/__svc/faults', rule),
      list: async () => (await call('GET', '/__svc/faults')).faults,
      remove: async (id) => void (await call('DELETE', `/__svc/faults/${encodeURIComponent(id)}`)),
      clear: async () => void (await call('DELETE', '/__svc/faults')),
    },
    requests: ({ limit, since, ...filter } = {}) => readPages(url, '/__svc/requests', 'requests', filter, since, limit),
    outbox: ({ limit, since } = {}) => readPages(url, '/__svc/outbox', 'messages', {}, since, limit),
    users: async () => (await call('GET', '/__svc/users')).users,
    connections: async () => (await call('GET', '/__svc/connections')).connections,
    revoke: async (connectionId) => void (await call('POST', `/__svc/connections/${encodeURIComponent(connectionId)}/revoke`)),
    channels: async () => (await call('GET', '/__svc/channels')).channels,
    async workspace(options = {}) {
      const created = (await callJson(rootUrl, 'POST', '/__svc/workspaces', options)) as { id: string; baseUrl: string };
      // A workspace copied `from` another holds that one's clients; the startup client is the best guess.
      const startupClient = options.fixture === undefined ? setup.startupClient : firstClient(options.fixture);
      return createWorkspaceHandle({ url: created.baseUrl, rootUrl, close: async () => {}, startupClient }, created.id);
    },
    checkpoint: (name) => call('POST', '/__svc/checkpoints', { name }),
    restore: async (name) => void (await call('POST', `/__svc/checkpoints/${encodeURIComponent(name)}/restore`)),
  };
}

export function createWorkspaceHandle(setup: Setup, id: string): WorkspaceHandle {
  return {
    ...createHandle(setup),
    url: setup.url as WorkspaceHandle['url'],
    id,
    delete: async () => void (await callJson(setup.rootUrl, 'DELETE', `/__svc/workspaces/${encodeURIComponent(id)}`)),
  };
}

// The journal and the outbox answer at most 1,000 entries a page; a handle asked for all of them
// follows `since` from page to page.
const PAGE = 1_000;

async function readPages<T extends { id: number | string }>(
  url: string,
  path: string,
  key: string,
  filter: Record<string, string | number | undefined>,
  since: number | undefined,
  limit: number | undefined,
): Promise<T[]> {
  const out: T[] = [];
  let after = since ?? 0;
  for (;;) {
    const wanted = Math.min(PAGE, (limit ?? Infinity) - out.length);
    if (wanted <= 0) return out;
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(filter)) if (value !== undefined) query.set(name, String(value));
    query.set('since', String(after));
    query.set('limit', String(wanted));
    const page = ((await callJson(url, 'GET', `${path}?${query}`)) as Record<string, T[]>)[key] ?? [];
    out.push(...page);
    const next = Number(page[page.length - 1]?.id);
    // A short page is the last; so is one that does not move forward (a service that ignores `since`).
    if (page.length < wanted || !(next > after)) return out;
    after = next;
  }
}

const WORKSPACE_PATH = /^(.*)\/w\/([a-z0-9-]{1,40})$/;

/**
 * A handle for a service that is already running (a `serve` process, a container, `exec`'s
 * CALENDAR_EMULATOR_URL), or for one workspace of it (`…/w/{id}`). Resolves once the service
 * answers its health check; close() only forgets it.
 */
export async function connect(url: `${string}/w/${string}`): Promise<WorkspaceHandle>;
export async function connect(url: string): Promise<Handle>;
export async function connect(url: string): Promise<Handle | WorkspaceHandle> {
  const base = url.replace(/\/+$/, '');
  await callJson(base, 'GET', '/__svc/health');
  const workspace = WORKSPACE_PATH.exec(base);
  const setup = { url: base, rootUrl: workspace ? (workspace[1] as string) : base, close: async () => {}, startupClient: undefined };
  return workspace ? createWorkspaceHandle(setup, workspace[2] as string) : createHandle(setup);
}
