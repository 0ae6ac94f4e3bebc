// The workspaces of one running service (docs/workspaces.md): the root, which the service started
// with, and those created under /__svc/workspaces, each a composition of src/composition/workspace.ts built
// the same way. This module owns which workspace a path reaches, their listeners of their own,
// and where their data lives.
//
// Storage: one store per workspace, so that no record, token or cache can cross between them and
// deleting a workspace drops all of it at once. With --db :memory: each workspace has a
// MemoryStore. With a database file `x.db`, each workspace has a SQLite file of its own,
// `x.db.workspaces/<id>.db` (WAL, like the root's), and the list of workspaces (id, createdAt,
// whether it had a port) is kept in the root store's meta under `workspaces`, read again at start.
// A workspace created from a fixture or a copy keeps that fixture in its own meta, for its reset.
// The workspaces' SQLite stores share one connection budget: at most a few dozen keep their
// connection open, and an idle one's opens again on its next use (store/connection-budget.ts).

import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { exportFixture } from '../fixtures/export.ts';
import { FixtureError, parseFixtureText } from '../fixtures/fixture.ts';
import { jsonBody } from '../http/request.ts';
import { empty, json } from '../http/result.ts';
import { Router } from '../http/router.ts';
import type { Handler, Surface } from '../http/surface.ts';
import { ManagementError } from '../management/errors.ts';
import { managementSurface } from '../management/routes.ts';
import { createHttpServer } from '../http/server.ts';
import type { HttpServer, HttpTimeouts, Routed } from '../http/server.ts';
import { ConnectionBudget } from '../store/connection-budget.ts';
import { MEMORY_DB, openStore } from '../store/open.ts';
import { buildWorkspace } from './workspace.ts';
import type { FixtureSource, Workspace, WorkspaceSettings } from './workspace.ts';

/** 1–40 characters of a-z, 0-9 and `-` (docs/workspaces.md). */
const WORKSPACE_ID = /^[a-z0-9-]{1,40}$/;
const PREFIX = '/w/';
/**
 * The registry of a database file's workspaces, in the root store's meta: a key each, so that
 * registering one writes one small row, whatever the number of others. (The registry as one
 * value listing every workspace, `workspaces`, is read once and converted.)
 */
const REGISTRY = 'workspace:';
const REGISTRY_AS_ONE_VALUE = 'workspaces';
/** The workspace's own meta key for a fixture other than the service's startup fixture. */
const OWN_FIXTURE = 'workspace_fixture';

interface Entry {
  id: string;
  workspace: Workspace;
  createdAt: string;
  listener: { http: HttpServer; url: string } | undefined;
}

/** What the registry keeps of each workspace in the root store's meta. */
interface Registered {
  id: string;
  createdAt: string;
  port: boolean;
}

export interface HostSettings extends WorkspaceSettings {
  /** --db: `:memory:` or the root's database file. */
  db: string;
  maxWorkspaces: number;
  /** The service's startup fixture: a new workspace's, unless it names another. */
  fixture: FixtureSource;
  /** The URL of a listener on `port` (the service's host). */
  urlFor(port: number): string;
  timeouts: HttpTimeouts | undefined;
}

export class Workspaces {
  readonly root: Workspace;
  readonly #settings: HostSettings;
  readonly #entries = new Map<string, Entry>();
  /** The workspaces' open SQLite connections (the root's is not counted: it stays open). */
  readonly connections = new ConnectionBudget();
  /** Ids being created (their store opens asynchronously): taken, though not yet listed. */
  readonly #creating = new Set<string>();
  /** The root's base URL, once the root listens. */
  #rootUrl = '';
  #rootPort = 0;

  constructor(root: Workspace, settings: HostSettings) {
    this.root = root;
    this.#settings = settings;
  }

  /** Once the root listens: every URL a workspace writes starts with the root's. */
  listening(rootUrl: string, rootPort: number): void {
    this.#rootUrl = rootUrl;
    this.#rootPort = rootPort;
    this.root.app.baseUrl = rootUrl;
    this.root.app.port = rootPort;
    for (const entry of this.#entries.values()) this.#place(entry);
  }

  /** The workspaces a database file listed when the service stopped, opened again (their ports anew). */
  async reopen(): Promise<void> {
    this.#convertRegistry();
    for (const registered of this.#registered()) {
      const store = await openStore(this.#fileOf(registered.id), this.connections);
      const own = store.getMeta(OWN_FIXTURE);
      const workspace = buildWorkspace(store, own === undefined ? this.#settings.fixture : { text: own, name: 'the fixture' }, this.#settings);
      await store.durable();
      store.releaseMemory();
      const entry: Entry = { id: registered.id, workspace, createdAt: registered.createdAt, listener: undefined };
      this.#entries.set(entry.id, entry);
      if (registered.port) entry.listener = await this.#listen(workspace, 0);
    }
  }

  /** The workspace owning `path`, and the path its surfaces see; undefined for an unknown workspace. */
  route(path: string): Routed | undefined {
    if (!path.startsWith(PREFIX)) return { site: this.#rootSite, path, baseUrl: this.#rootUrl, prefix: '' };
    const end = path.indexOf('/', PREFIX.length);
    const id = end === -1 ? path.slice(PREFIX.length) : path.slice(PREFIX.length, end);
    const entry = this.#entries.get(id);
    if (entry === undefined) return undefined;
    return { site: entry.workspace, path: end === -1 ? '/' : path.slice(end), baseUrl: entry.workspace.app.baseUrl, prefix: PREFIX + id };
  }

  /** The root as its listener serves it: /__svc/workspaces first, then its own surfaces. */
  readonly #rootSite = {
    surfaces: [] as Surface[],
    durable: () => this.root.durable(),
    onAnswered: (...args: Parameters<NonNullable<Workspace['onAnswered']>>) => this.root.onAnswered?.(...args),
  };

  /** Builds the root's surfaces: must run once, before the root listens. */
  rootSurfaces(): void {
    this.#rootSite.surfaces = [this.#surface(), ...this.root.surfaces];
  }

  async create(body: unknown): Promise<Entry> {
    const request = parseCreate(body);
    const id = request.id ?? randomBytes(6).toString('hex');
    if (this.#entries.has(id) || this.#creating.has(id)) throw new ManagementError(409, 'conflict', `A workspace with id ${JSON.stringify(id)} exists.`);
    if (this.#entries.size + this.#creating.size >= this.#settings.maxWorkspaces) {
      throw new ManagementError(429, 'too_many_workspaces', `At most ${this.#settings.maxWorkspaces} workspaces (--max-workspaces); delete one first.`);
    }
    const fixture = this.#fixtureFor(request);
    this.#creating.add(id);
    try {
      const file = this.#fileOf(id);
      // A file left by a workspace of this id that crashed before it was registered holds nothing of ours.
      if (file !== MEMORY_DB) removeDatabase(file);
      const store = await openStore(file, this.connections);
      let workspace: Workspace;
      try {
        if (fixture !== this.#settings.fixture) store.setMeta(OWN_FIXTURE, fixture.text);
        workspace = buildWorkspace(store, fixture, this.#settings);
        await store.durable();
        store.releaseMemory();
      } catch (error) {
        store.close();
        throw error;
      }
      const entry: Entry = { id, workspace, createdAt: new Date().toISOString(), listener: undefined };
      if (request.port !== undefined) {
        try {
          entry.listener = await this.#listen(workspace, request.port);
        } catch (error) {
          workspace.close();
          throw new ManagementError(400, 'invalid_request', `Cannot listen on port ${request.port}: ${(error as { code?: string }).code ?? (error as Error).message}.`);
        }
      }
      this.#place(entry);
      this.#entries.set(id, entry);
      this.#register(entry);
      return entry;
    } finally {
      this.#creating.delete(id);
    }
  }

  async delete(id: string): Promise<void> {
    const entry = this.#entries.get(id);
    if (entry === undefined) throw new ManagementError(404, 'not_found', `No workspace with id ${JSON.stringify(id)}.`);
    this.#entries.delete(id);
    this.#unregister(id);
    entry.workspace.close();
    await entry.listener?.http.stop();
    const file = this.#fileOf(id);
    if (file !== MEMORY_DB) removeDatabase(file);
  }

  list(): object[] {
    return [...this.#entries.values()].map(describe);
  }

  /** Stops every workspace's own listener and closes every store but the root's. */
  async close(): Promise<void> {
    const entries = [...this.#entries.values()];
    this.#entries.clear();
    for (const entry of entries) entry.workspace.faults.endDelays();
    await Promise.all(entries.map((entry) => entry.listener?.http.stop()));
    for (const entry of entries) entry.workspace.close();
  }

  #place(entry: Entry): void {
    entry.workspace.app.baseUrl = `${this.#rootUrl}${PREFIX}${entry.id}`;
    // Webhooks must not point at the service itself, whichever workspace's address it is.
    entry.workspace.app.port = this.#rootPort;
  }

  async #listen(workspace: Workspace, port: number): Promise<{ http: HttpServer; url: string }> {
    let url = '';
    const http = createHttpServer({
      route: (path) => ({ site: workspace, path, baseUrl: url, prefix: '' }),
      log: this.#settings.log,
      timeouts: this.#settings.timeouts,
    });
    await new Promise<void>((resolve, reject) => {
      http.server.once('error', reject);
      http.server.listen(port, this.#settings.host, () => {
        http.server.off('error', reject);
        resolve();
      });
    });
    url = this.#settings.urlFor((http.server.address() as AddressInfo).port);
    return { http, url };
  }

  #fixtureFor(request: CreateRequest): FixtureSource {
    if (request.from !== undefined) {
      const source = this.#entries.get(request.from);
      if (source === undefined) throw new ManagementError(404, 'not_found', `No workspace with id ${JSON.stringify(request.from)} to copy.`);
      return { text: JSON.stringify(exportFixture(source.workspace.app.store)), name: 'the copied workspace' };
    }
    if (request.fixture === undefined) return this.#settings.fixture;
    const text = JSON.stringify(request.fixture);
    try {
      parseFixtureText(text);
    } catch (error) {
      if (error instanceof FixtureError) throw new ManagementError(400, 'invalid_fixture', error.message);
      throw error;
    }
    return { text, name: 'the fixture' };
  }

  #fileOf(id: string): string {
    if (this.#settings.db === MEMORY_DB) return MEMORY_DB;
    const folder = `${this.#settings.db}.workspaces`;
    mkdirSync(folder, { recursive: true });
    return `${folder}/${id}.db`;
  }

  /** The registered workspaces in the order they were made. */
  #registered(): Registered[] {
    if (this.#settings.db === MEMORY_DB) return [];
    const registered = this.root.app.store.listMeta(REGISTRY).map(({ value }) => JSON.parse(value) as Registered);
    return registered.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1));
  }

  #register(entry: Entry): void {
    if (this.#settings.db === MEMORY_DB) return;
    const registered: Registered = { id: entry.id, createdAt: entry.createdAt, port: entry.listener !== undefined };
    this.root.app.store.setMeta(REGISTRY + entry.id, JSON.stringify(registered));
  }

  #unregister(id: string): void {
    if (this.#settings.db !== MEMORY_DB) this.root.app.store.deleteMeta(REGISTRY + id);
  }

  /** A file whose registry is one value listing every workspace gets a key for each instead. */
  #convertRegistry(): void {
    if (this.#settings.db === MEMORY_DB) return;
    const store = this.root.app.store;
    const asOneValue = store.getMeta(REGISTRY_AS_ONE_VALUE);
    if (asOneValue === undefined) return;
    store.transaction(() => {
      for (const registered of JSON.parse(asOneValue) as Registered[]) store.setMeta(REGISTRY + registered.id, JSON.stringify(registered));
      store.deleteMeta(REGISTRY_AS_ONE_VALUE);
    });
  }

  #surface(): Surface {
    const routes = new Router<Handler>()
      .add('POST', '/__svc/workspaces', async (req) => json(201, created(await this.create(jsonBody(req, true)))))
      .add('GET', '/__svc/workspaces', () => json(200, { workspaces: this.list() }))
      .add('DELETE', '/__svc/workspaces/:id', async (_req, params) => {
        await this.delete(params.id as string);
        return empty(204);
      });
    return managementSurface(this.root.app, 'workspaces', (path) => path === '/__svc/workspaces' || path.startsWith('/__svc/workspaces/'), routes);
  }
}

/** The create answer (docs/workspaces.md): where the new workspace is, and when it was made. */
function created(entry: Entry): object {
  return {
    id: entry.id,
    baseUrl: entry.workspace.app.baseUrl,
    ...(entry.listener === undefined ? {} : { portUrl: entry.listener.url }),
    createdAt: entry.createdAt,
  };
}

/** A workspace as GET /__svc/workspaces lists it: the create answer, with its counts and last use. */
function describe(entry: Entry): object {
  const lastRequestAt = entry.workspace.lastRequestAt;
  return {
    ...created(entry),
    ...entry.workspace.app.store.sizes(),
    lastRequestAt: lastRequestAt === undefined ? null : new Date(lastRequestAt).toISOString(),
  };
}

interface CreateRequest {
  id: string | undefined;
  fixture: unknown;
  from: string | undefined;
  port: number | undefined;
}

const CREATE_MEMBERS = new Set(['id', 'fixture', 'from', 'port']);

function parseCreate(body: unknown): CreateRequest {
  const invalid = (message: string) => new ManagementError(400, 'invalid_request', message);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw invalid('The body must be a JSON object: {"id"?, "fixture"?, "from"?, "port"?}.');
  const members = body as Record<string, unknown>;
  for (const key of Object.keys(members)) if (!CREATE_MEMBERS.has(key)) throw invalid(`Unknown member ${JSON.stringify(key)}: a workspace takes id, fixture, from and port.`);
  const { id, fixture, from, port } = members;
  if (id !== undefined && (typeof id !== 'string' || !WORKSPACE_ID.test(id))) throw invalid('id must be 1 to 40 characters of a-z, 0-9 and "-".');
  if (from !== undefined && typeof from !== 'string') throw invalid('from must be the id of a workspace.');
  if (from !== undefined && fixture !== undefined) throw invalid('Give fixture or from, not both.');
  if (port !== undefined && (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65535)) throw invalid('port must be an integer from 0 to 65535.');
  return { id: id as string | undefined, fixture, from: from as string | undefined, port: port as number | undefined };
}

function removeDatabase(file: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
}
