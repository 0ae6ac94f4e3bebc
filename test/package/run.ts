// The package as a user gets it (README "Install", docs/cli.md), run by .ci/run after the
// suite: `npm pack` in this checkout (which builds dist/), the tarball installed into an empty
// folder under the OS temp directory, then the INSTALLED bin and the package's main entry, never
// src/, driven over HTTP on every Node given: health, a token through the real consent flow (the
// installed `token` command) and calendarList. Then the Node floor on an older Node, and an
// install from this repository's git URL. Not in the default test glob: packing and installing
// take most of a minute.
//
//   npx tsx test/package/run.ts [--node <path to another node binary>]...

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import type { SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const { name: NAME, version: VERSION } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
/** Below the floor (src/cli/node-floor.ts); installed from the npm registry's `node` package. */
const OLD_NODE_VERSION = '18.20.8';
const OLD_NODE_PREFIX = join(process.env['XDG_CACHE_HOME'] || join(homedir(), '.cache'), 'local-calendar-emulator', `node-${OLD_NODE_VERSION}`);

const extraNodes = process.argv.flatMap((arg, i) => (arg === '--node' && process.argv[i + 1] ? [process.argv[i + 1] as string] : []));
const NODES = [process.execPath, ...extraNodes];

const scratch = mkdtempSync(join(tmpdir(), 'lce-package-'));
// A space in the folder name: the package must find its own files by path, not by URL text.
const project = join(scratch, 'a project');
const bin = join(project, 'node_modules', '.bin', NAME);

function npm(args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): SpawnSyncReturns<string> {
  const result = spawnSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, env, encoding: 'utf8', shell: process.platform === 'win32' });
  assert.equal(result.status, 0, `npm ${args.join(' ')} failed:\n${result.stdout}\n${result.stderr}`);
  return result;
}

/** An empty project folder with the package installed into it from `spec` (a path or URL). */
function installInto(folder: string, spec: string): void {
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'scratch', version: '1.0.0', private: true, type: 'module' }));
  npm(['install', spec], folder);
}

interface Served {
  url: string;
  stop(): Promise<void>;
}

/** A process that prints `Listening on {url}` on stdout once it serves. */
async function serve(command: string, args: string[], cwd: string): Promise<Served> {
  const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no Listening line within 30 s; stderr: ${stderr}`)), 30_000);
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      stdout += text;
      const match = /^Listening on (\S+)\n/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(match[1] as string);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited with ${code} before listening; stderr: ${stderr}`));
    });
  }).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
  return {
    url,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Health, a token from the installed `token` command run on `node`, then calendarList with it. */
async function drive(url: string, node: string): Promise<void> {
  const health = await fetch(`${url}/__svc/health`);
  assert.equal(health.status, 200);
  assert.deepEqual({ ...((await health.json()) as object), uptimeSeconds: 0 }, { status: 'ok', store: 'memory', version: VERSION, uptimeSeconds: 0 });

  const token = spawnSync(node, [bin, 'token', '--url', url, '--user', 'user-aiko'], { encoding: 'utf8' });
  assert.equal(token.status, 0, token.stderr);
  const { access_token: accessToken } = JSON.parse(token.stdout) as { access_token: string };

  const list = await fetch(`${url}/calendar/v3/users/me/calendarList`, { headers: { Authorization: `Bearer ${accessToken}` } });
  assert.equal(list.status, 200);
  const body = (await list.json()) as { kind: string; items: { id: string; primary?: boolean }[] };
  assert.equal(body.kind, 'calendar#calendarList');
  assert.ok(body.items.some((item) => item.primary === true));
}

before(() => {
  // `npm pack` runs the package's `prepare` script, which builds dist/ from src/.
  const packed = npm(['pack', '--pack-destination', scratch, '--json'], ROOT);
  const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }];
  installInto(project, join(scratch, filename));
  // A program that imports the package by its name, as any ESM project would.
  writeFileSync(
    join(project, 'serve.mjs'),
    "import { start } from 'local-calendar-emulator';\nconst service = await start({ port: 0 });\nprocess.on('SIGTERM', () => service.close());\nprocess.stdout.write(`Listening on ${service.url}\\n`);\n",
  );
});

after(() => rmSync(scratch, { recursive: true, force: true }));

describe('the installed package', () => {
  it('ships JavaScript, declarations, the default fixture, README and LICENSE, and no dependencies', () => {
    const installed = join(project, 'node_modules', NAME);
    for (const file of ['dist/main.js', 'dist/index.js', 'dist/index.d.ts', 'dist/inspector/index.html', 'fixtures/default.json', 'README.md', 'LICENSE']) {
      assert.ok(existsSync(join(installed, file)), file);
    }
    assert.ok(!existsSync(join(installed, 'src')), 'src/ stays out of the package');
    // src/'s module layout, a JavaScript file per module, and the same modules in one file for
    // the bin to start from (.ci/bundle-package.ts).
    const scripts = new Set(readdirSync(join(installed, 'dist'), { recursive: true, encoding: 'utf8' }).map((file) => file.split('\\').join('/')));
    const sources = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'));
    for (const source of sources) assert.ok(scripts.has(source.split('\\').join('/').replace(/\.ts$/, '.js')), `${source} has its JavaScript`);
    assert.ok(scripts.has('modules.js'));
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { dependencies?: object };
    assert.deepEqual(manifest.dependencies ?? {}, {});
  });

  for (const node of NODES) {
    const label = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();

    it(`npx runs the bin on Node ${label}`, () => {
      // npx finds the bin in the project; its `#!/usr/bin/env node` runs on the first node on PATH.
      const env = { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env['PATH'] ?? ''}` };
      assert.equal(npm(['exec', '--no', '--', NAME, '--version'], project, env).stdout, `${VERSION}\n`);
    });

    it(`the installed bin serves on Node ${label}: health, token, calendarList`, async () => {
      const served = await serve(node, [bin, '--port', '0'], project);
      try {
        await drive(served.url, node);
        const page = await fetch(`${served.url}/__svc/ui`, { headers: { 'Sec-Fetch-Site': 'none' } });
        assert.equal(page.status, 200, 'the inspector page is served from the installed files');
      } finally {
        await served.stop();
      }
    });

    it(`import { start } from '${NAME}' serves on Node ${label}`, async () => {
      const served = await serve(node, ['serve.mjs'], project);
      try {
        await drive(served.url, node);
      } finally {
        await served.stop();
      }
    });
  }
});

describe('the Node floor', () => {
  const oldNode = join(OLD_NODE_PREFIX, 'node_modules', 'node', 'bin', 'node');
  let skip: string | false = false;
  if (!existsSync(oldNode)) {
    const installed = spawnSync('npm', ['install', '--prefix', OLD_NODE_PREFIX, '--no-save', '--no-audit', '--no-fund', `node@${OLD_NODE_VERSION}`], { encoding: 'utf8' });
    if (installed.status !== 0 || !existsSync(oldNode)) skip = `node@${OLD_NODE_VERSION} could not be installed from the npm registry: ${installed.stderr.trim().split('\n').at(-1)}`;
  }
  if (skip) process.stdout.write(`# skipped: ${skip}\n`);

  it(`the bin on Node ${OLD_NODE_VERSION} prints one line and exits 2 before anything fails`, { skip }, () => {
    const result = spawnSync(oldNode, [bin, '--port', '0'], { encoding: 'utf8' });
    assert.equal(result.stderr, `needs Node >= 20.16 (this is v${OLD_NODE_VERSION})\n`);
    assert.equal(result.stdout, '');
    assert.equal(result.status, 2);
  });
});

describe('an install from the git URL', () => {
  const head = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' });
  const skip = head.status === 0 ? false : `${ROOT} is not a git work tree (git rev-parse: ${head.stderr.trim()})`;

  it('builds the package through `prepare` and serves', { skip }, async () => {
    // npm clones the commit, installs its dev dependencies and runs `prepare` there (uncommitted
    // changes are not in it).
    const folder = join(scratch, 'from-git');
    installInto(folder, `git+file://${ROOT}#${head.stdout.trim()}`);
    const served = await serve(process.execPath, [join(folder, 'node_modules', '.bin', NAME), '--port', '0'], folder);
    try {
      const health = await fetch(`${served.url}/__svc/health`);
      assert.equal(health.status, 200);
    } finally {
      await served.stop();
    }
  });
});
