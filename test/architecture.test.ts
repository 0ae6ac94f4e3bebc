// The layers of src/, checked on every run: each file belongs to one part of
// the map below, a part imports only the parts the map lets it, the map's edges all point down
// its layers, and no import cycle exists between files. The layer table of docs/architecture.md
// is the same map, checked here to name exactly these parts, members, layers and edges. A new edge
// between parts, a new folder or file outside the map, or an import of anything but node:
// builtins and relative files fails here: widening the map is a deliberate change to PARTS and to
// that table together. Type imports count: a type is a dependency.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');

interface Part {
  /** Files (`app.ts`) and folders (`calendar/`) of src/, relative to it. */
  readonly members: readonly string[];
  /** Higher layers may import lower ones, never the other way. */
  readonly layer: number;
  /** The parts this one may import, besides itself. */
  readonly mayImport: readonly string[];
}

// Layers, top to bottom: 8 entry points, 7 the composition root, 6 the Management API and the
// MCP surface, 5 the Calendar API, 4 OAuth and push delivery, 3 the App's shared state, the
// journal, the fault rules and the usage limits, 2 fixtures, 1 the event model and Google's error
// envelope, 0 the foundation, the HTTP server among it (each part of it imports nothing outside
// itself). The test handle sits at 0 too: it is a client of the
// public HTTP API, so it must import nothing of the service, or it would behave differently in
// process and remote.
const PARTS: Readonly<Record<string, Part>> = {
  entry: { members: ['main.ts', 'cli/'], layer: 8, mayImport: ['root', 'config', 'fixtures', 'handle', 'http', 'store', 'text'] },
  root: { members: ['index.ts', 'composition/'], layer: 7, mayImport: ['app', 'calendar', 'config', 'domain', 'faults', 'fixtures', 'http', 'handle', 'journal', 'management', 'mcp', 'oauth', 'push', 'store', 'usage'] },
  // Google's MCP tools run the Calendar API's handlers, so the MCP surface sits just above it.
  mcp: { members: ['mcp/'], layer: 6, mayImport: ['api', 'app', 'calendar', 'config', 'domain', 'faults', 'http', 'oauth', 'push', 'usage'] },
  management: { members: ['management/'], layer: 6, mayImport: ['app', 'calendar', 'config', 'domain', 'faults', 'fixtures', 'http', 'journal', 'push', 'usage', 'validation'] },
  calendar: { members: ['calendar/'], layer: 5, mayImport: ['api', 'app', 'crypto', 'domain', 'event-model', 'faults', 'http', 'oauth', 'push', 'store', 'usage', 'validation'] },
  oauth: { members: ['oauth/'], layer: 4, mayImport: ['api', 'app', 'crypto', 'faults', 'http', 'store'] },
  push: { members: ['push/'], layer: 4, mayImport: ['api', 'app', 'crypto', 'domain', 'faults', 'store', 'validation'] },
  journal: { members: ['journal/'], layer: 3, mayImport: ['domain', 'http'] },
  faults: { members: ['faults/'], layer: 3, mayImport: ['api', 'http', 'validation'] },
  usage: { members: ['usage/'], layer: 3, mayImport: ['api', 'domain'] },
  app: { members: ['app/'], layer: 3, mayImport: ['domain', 'fixtures', 'http', 'store'] },
  fixtures: { members: ['fixtures/'], layer: 2, mayImport: ['crypto', 'domain', 'event-model', 'store', 'text', 'validation'] },
  'event-model': { members: ['event-model/'], layer: 1, mayImport: ['crypto', 'domain', 'store', 'validation'] },
  api: { members: ['api/'], layer: 1, mayImport: ['http', 'validation'] },
  http: { members: ['http/'], layer: 0, mayImport: [] },
  validation: { members: ['validation/'], layer: 0, mayImport: [] },
  crypto: { members: ['crypto/'], layer: 0, mayImport: [] },
  domain: { members: ['domain/'], layer: 0, mayImport: [] },
  store: { members: ['store/'], layer: 0, mayImport: [] },
  config: { members: ['config/'], layer: 0, mayImport: [] },
  text: { members: ['text/'], layer: 0, mayImport: [] },
  handle: { members: ['handle/'], layer: 0, mayImport: [] },
};

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

const IMPORT_PATTERNS = [
  // import x from '…', import type { … } from '…', export { … } from '…', export * from '…'
  /^(?:import|export)\s+(?:type\s+)?(?:\w+\s*,\s*)?(?:\{[^}]*\}|\*(?:\s+as\s+\w+)?|\w+)\s+from\s+'([^']+)'/gm,
  // import '…' (for its effects)
  /^import\s+'([^']+)'/gm,
  // await import('…')
  /\bimport\(\s*'([^']+)'\s*\)/g,
];

/** The specifiers a source text imports, in order of the patterns. */
function specifiersOf(text: string): string[] {
  return IMPORT_PATTERNS.flatMap((pattern) => [...text.matchAll(pattern)].map((match) => match[1] as string));
}

/** Every file of src/ (relative, `/`-separated) with the src files it imports. */
function readGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of filesUnder(SRC)) {
    const from = relative(SRC, file).split(sep).join('/');
    const targets: string[] = [];
    for (const specifier of specifiersOf(readFileSync(file, 'utf8'))) {
      if (specifier.startsWith('node:')) continue;
      assert.ok(specifier.startsWith('.'), `${from} imports ${specifier}: src/ uses only node: builtins and its own files`);
      targets.push(relative(SRC, normalize(join(dirname(file), specifier))).split(sep).join('/'));
    }
    graph.set(from, targets);
  }
  return graph;
}

/** The part a src file belongs to, or undefined when the map does not name it. */
function partOf(file: string, parts: Readonly<Record<string, Part>> = PARTS): string | undefined {
  const owners = Object.entries(parts).filter(([, part]) => part.members.some((m) => (m.endsWith('/') ? file.startsWith(m) : file === m)));
  assert.ok(owners.length <= 1, `${file} is in more than one part: ${owners.map(([name]) => name).join(', ')}`);
  return owners[0]?.[0];
}

const ARCHITECTURE_DOC = join(SRC, '..', 'docs', 'architecture.md');

/**
 * The map as docs/architecture.md's layer table states it: rows `| layer | name: \`src/…\`, … |
 * what it holds | parts, or "nothing" |`, members and edges sorted.
 */
function documentedParts(markdown: string): Record<string, Part> {
  const parts: Record<string, Part> = {};
  for (const line of markdown.split('\n')) {
    const cells = line.split('|').slice(1, -1).map((cell) => cell.trim());
    if (cells.length !== 4 || !/^\d+$/.test(cells[0] as string)) continue;
    const [layer, part, , edges] = cells as [string, string, string, string];
    const named = /^([\w-]+): (.+)$/.exec(part);
    assert.ok(named, `docs/architecture.md: the part "${part}" is not written "name: \`src/…\`"`);
    const name = named[1] as string;
    assert.equal(parts[name], undefined, `docs/architecture.md names the part ${name} twice`);
    parts[name] = {
      layer: Number(layer),
      members: [...(named[2] as string).matchAll(/`src\/([^`]+)`/g)].map((m) => m[1] as string).sort(),
      mayImport: edges === 'nothing' ? [] : edges.split(',').map((edge) => edge.trim()).sort(),
    };
  }
  return parts;
}

/** PARTS with members and edges sorted, to compare with the documented map. */
function sortedParts(parts: Readonly<Record<string, Part>>): Record<string, Part> {
  return Object.fromEntries(Object.entries(parts).map(([name, part]) => [name, { layer: part.layer, members: [...part.members].sort(), mayImport: [...part.mayImport].sort() }]));
}

/** Edges between parts that the map does not allow, as `from -> to` lines. */
function forbiddenEdges(graph: ReadonlyMap<string, readonly string[]>, parts: Readonly<Record<string, Part>> = PARTS): string[] {
  const out: string[] = [];
  for (const [from, targets] of graph) {
    const source = partOf(from, parts);
    for (const to of targets) {
      const target = partOf(to, parts);
      if (source === undefined || target === undefined || source === target) continue;
      if (!parts[source]?.mayImport.includes(target)) out.push(`${from} -> ${to} (${source} -> ${target})`);
    }
  }
  return out;
}

/** One import cycle between files, as the path round it, or undefined when there is none. */
function findCycle(graph: ReadonlyMap<string, readonly string[]>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string): string[] | undefined => {
    if (state.get(file) === 'done') return undefined;
    if (state.get(file) === 'open') return [...path.slice(path.indexOf(file)), file];
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(file, 'done');
    return undefined;
  };
  for (const file of graph.keys()) {
    const cycle = visit(file);
    if (cycle) return cycle;
  }
  return undefined;
}

describe('architecture', () => {
  const graph = readGraph();

  it('reads the imports of src/ (type imports, re-exports and dynamic imports included)', () => {
    assert.ok(graph.get('calendar/routes.ts')?.includes('calendar/watch.ts'));
    assert.ok(graph.get('calendar/context.ts')?.includes('oauth/bearer.ts'), 'import type');
    assert.ok(graph.get('domain/recurrence/expand.ts')?.includes('domain/recurrence/cost.ts'), 'export … from');
    assert.ok(graph.get('main.ts')?.includes('cli/process.ts'), 'import(…)');
    assert.deepEqual(specifiersOf("import './side-effect.ts';\nexport * from './all.ts';\n// import { no } from './comment.ts';"), ['./all.ts', './side-effect.ts']);
  });

  it('every file of src/ is in exactly one part of the map, and every part has files', () => {
    for (const file of graph.keys()) assert.ok(partOf(file) !== undefined, `${file} is in no part of the map`);
    for (const [name, part] of Object.entries(PARTS)) {
      for (const member of part.members) assert.ok([...graph.keys()].some((f) => (member.endsWith('/') ? f.startsWith(member) : f === member)), `${name}: ${member} is not in src/`);
    }
  });

  it('the map points down its layers only', () => {
    for (const [name, part] of Object.entries(PARTS)) {
      for (const target of part.mayImport) {
        assert.ok(PARTS[target] !== undefined, `${name} may import ${target}, which is not a part`);
        assert.ok(PARTS[target].layer < part.layer, `${name} (layer ${part.layer}) may import ${target} (layer ${PARTS[target].layer})`);
      }
    }
  });

  it('no import crosses parts outside the map', () => {
    assert.deepEqual(forbiddenEdges(graph), []);
  });

  it('no import cycle between files', () => {
    assert.equal(findCycle(graph)?.join(' -> '), undefined);
  });

  it("docs/architecture.md's layer table is this map: the same parts, members, layers and edges", () => {
    assert.deepEqual(documentedParts(readFileSync(ARCHITECTURE_DOC, 'utf8')), sortedParts(PARTS));
  });

  it('a documented map that drifts from PARTS is caught', () => {
    const table = '| Layer | Part | What it holds | May import |\n|---|---|---|---|\n| 0 | http: `src/http/`, `src/server.ts` | x | nothing |\n| 1 | api: `src/api/` | x | http, validation |\n';
    assert.deepEqual(documentedParts(table), {
      http: { layer: 0, members: ['http/', 'server.ts'], mayImport: [] },
      api: { layer: 1, members: ['api/'], mayImport: ['http', 'validation'] },
    });
    assert.notDeepEqual(documentedParts(table), sortedParts(PARTS));
    assert.throws(() => documentedParts('| 0 | `src/http/` | x | nothing |'), /not written "name:/);
  });

  it('a bad edge or a cycle is caught', () => {
    // The store importing the Calendar API, which imports the store: a forbidden edge and a cycle.
    const bad = new Map([
      ['store/store.ts', ['calendar/routes.ts']],
      ['calendar/routes.ts', ['store/store.ts']],
    ]);
    assert.deepEqual(forbiddenEdges(bad), ['store/store.ts -> calendar/routes.ts (store -> calendar)']);
    assert.deepEqual(findCycle(bad), ['store/store.ts', 'calendar/routes.ts', 'store/store.ts']);
  });
});
