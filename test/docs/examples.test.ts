// The shell examples of the README and docs/ are run against a freshly started service, so a page
// whose example drifts from what the service answers fails here rather than misleading a reader.
// (docs/quickstarts.md and docs/testing.md hold programs, kept verbatim by their own guards.)
//
// How a page's ```sh block is read:
// - `<!-- not run: reason -->` on the line before the fence leaves the block out: only for
//   blocks that install, benchmark or run a whole test suite, which a test cannot do quickly.
// - A command is a line with what continues it (a trailing `\`, an open quote). The `# ` lines
//   right after it (no blank line between) show its answer; a `#` line after a blank line, or
//   before the block's first command, is a remark. A command without shown lines must succeed.
// - The shown answer must match what the command prints, whitespace ignored (pages wrap long
//   answers); `…` stands for any text (ids, times, tokens).
// - `http://127.0.0.1:8080` is the service's address: the test puts the real one in its place.
// - A page's commands run in order in one `bash -e` (variables carry from block to block, as in
//   one terminal), in a scratch directory that has the repository's `fixtures/`;
//   `npx tsx src/main.ts …` and `npx local-calendar-emulator …` run src/main.ts on this runtime.
// - A command that starts the service itself (`npx tsx src/main.ts [--flag…] [&]`) is the one
//   the test starts for the page, on a free port with those flags: its shown lines are matched
//   against that service's stdout and stderr.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, test } from 'node:test';
import { MAIN, serveCli } from '../_helpers/cli-run.ts';
import { nodeTsArgs } from '../_helpers/node.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const DOCUMENTED_URL = 'http://127.0.0.1:8080';
const GUARDED_ELSEWHERE = new Set(['docs/quickstarts.md', 'docs/testing.md']);
const START = /^(?:npx tsx src\/main\.ts|npx local-calendar-emulator)((?: --[a-z-]+(?:[ =][^-\s&]\S*)?)*)(?: &)?$/;

interface Step {
  /** The command as the page writes it. */
  command: string;
  /** The `# ` lines that follow it, without their `#`; empty when it shows none. */
  shown: string[];
}

interface Block {
  page: string;
  /** The line after the opening fence, naming the block in failures. */
  firstLine: string;
  notRun?: string | undefined;
  steps: Step[];
}

/** Whether `text` leaves a quote open or ends in a line continuation, as bash reads it. */
function continues(text: string): boolean {
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote === "'") {
      if (c === "'") quote = undefined;
    } else if (c === '\\') {
      if (i === text.length - 1) return true;
      i++;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
    } else if (c === "'" || c === '"') {
      quote = c;
    } else if (c === '#' && (i === 0 || /\s/.test(text[i - 1] as string))) {
      const end = text.indexOf('\n', i);
      if (end === -1) return false;
      i = end;
    }
  }
  return quote !== undefined;
}

function parseSteps(body: string): Step[] {
  const steps: Step[] = [];
  let pending: string | undefined;
  let last: Step | undefined; // the command whose shown lines may follow
  for (const line of body.split('\n')) {
    if (pending !== undefined) {
      pending += `\n${line}`;
    } else if (line.trim() === '') {
      last = undefined;
      continue;
    } else if (line.trimStart().startsWith('#')) {
      last?.shown.push(line.trimStart().replace(/^# ?/, ''));
      continue;
    } else {
      pending = line;
    }
    if (!continues(pending)) {
      last = { command: pending, shown: [] };
      steps.push(last);
      pending = undefined;
    }
  }
  return steps;
}

function blocksOf(page: string): Block[] {
  const text = readFileSync(join(ROOT, page), 'utf8');
  return [...text.matchAll(/(?:^<!-- not run: (.+?) -->\n)?^```sh\n([\s\S]*?)^```$/gm)].map((match) => ({
    page,
    firstLine: (match[2] as string).split('\n')[0] as string,
    notRun: match[1],
    steps: parseSteps(match[2] as string),
  }));
}

/** Whether `actual` is what `shown` shows: whitespace ignored, `…` for any text. */
function matches(shown: string, actual: string): boolean {
  const parts = shown.replace(/\s+/g, '').split('…').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('[\\s\\S]*')}$`).test(actual.replace(/\s+/g, ''));
}

/** Runs `npx tsx src/main.ts …` and `npx local-calendar-emulator …` as src/main.ts on this runtime. */
const NPX_SHIM = `npx() {
  case "$1 $2" in
    "tsx src/main.ts") shift 2 ;;
    "local-calendar-emulator "*) shift 1 ;;
    *) echo "the docs test runs no other npx command: npx $*" >&2; return 127 ;;
  esac
  (cd "$DOCS_ROOT" && "$DOCS_NODE" $DOCS_NODE_ARGS "$DOCS_MAIN" "$@")
}
`;

/** Runs the steps in one bash; each step's stdout, and the error of the step that failed. */
function runSteps(commands: string[], url: string, cwd: string): Promise<{ outputs: string[]; failed?: { step: number; stderr: string } | undefined }> {
  const script = ['set -e', NPX_SHIM, ...commands.flatMap((command, i) => [`printf '\\036%d\\036' ${i}`, command])].join('\n');
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], {
      cwd,
      env: {
        ...process.env,
        CALENDAR_EMULATOR_URL: url,
        DOCS_ROOT: ROOT,
        DOCS_NODE: process.execPath,
        DOCS_NODE_ARGS: nodeTsArgs.join(' '),
        DOCS_MAIN: MAIN,
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const pieces = stdout.split(/\x1e\d+\x1e/).slice(1);
      resolve({ outputs: pieces, failed: code === 0 ? undefined : { step: pieces.length - 1, stderr } });
    });
  });
}

const pages = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)].filter(
  (page) => !GUARDED_ELSEWHERE.has(page),
);

test('the example reader: commands, their shown answers, remarks, continuations', () => {
  const steps = parseSteps(
    [
      '# a remark',
      "curl -s -X POST http://x -d '{",
      '  "a": 1 }\'   # a trailing remark',
      '# {"a":1,',
      '#  "b":"…"}',
      '',
      '# another remark',
      'TOKEN=$(npx tsx src/main.ts token \\',
      '  --field access_token)',
    ].join('\n'),
  );
  assert.deepEqual(steps, [
    { command: "curl -s -X POST http://x -d '{\n  \"a\": 1 }'   # a trailing remark", shown: ['{"a":1,', ' "b":"…"}'] },
    { command: 'TOKEN=$(npx tsx src/main.ts token \\\n  --field access_token)', shown: [] },
  ]);
  assert.ok(matches('{"a":1,\n "b":"…"}', '{"a": 1, "b": "xyz"}'));
  assert.ok(!matches('{"a":1}', '{"a":2}'));
  assert.ok(!matches('{"a":1}', '{"a":1}extra'));
  assert.ok(START.test('npx tsx src/main.ts --mcp &') && !START.test('npx tsx src/main.ts token --field x'));
});

// Each page has a service of its own, so pages can run side by side; two at a time keep the
// spawned services and tokens from crowding a small machine.
describe('the shell examples of the README and docs/', { concurrency: 2 }, () => {
  for (const page of pages) {
    const blocks = blocksOf(page).filter((block) => block.notRun === undefined);
    if (blocks.length === 0) continue;
    it(`${page}: every shell example answers as the page shows`, async (t) => {
      const steps = blocks.flatMap((block) => block.steps.map((step) => ({ ...step, block })));
      const start = steps.find((step) => START.test(step.command));
      const flags = start === undefined ? [] : ((START.exec(start.command) as RegExpExecArray)[1] as string).trim().split(/\s+/).filter(Boolean);
      const service = serveCli(['--port', '0', ...flags]);
      t.after(() => service.child.kill());
      const url = await service.listening;
      const cwd = mkdtempSync(join(tmpdir(), 'docs-examples-'));
      t.after(() => rmSync(cwd, { recursive: true, force: true }));
      symlinkSync(join(ROOT, 'fixtures'), join(cwd, 'fixtures'));

      const run = steps.map((step) => (START.test(step.command) ? ':' : step.command.replaceAll(DOCUMENTED_URL, url)));
      const { outputs, failed } = await runSteps(run, url, cwd);
      const problems: string[] = failed?.step === -1 ? [`${page}: the shell failed before the first command:\n${failed.stderr}`] : [];
      for (const [i, step] of steps.entries()) {
        if (failed?.step === i) {
          problems.push(`${page}, block "${step.block.firstLine}": \`${step.command}\` failed:\n${failed.stderr}`);
          break;
        }
        if (step.shown.length === 0) continue;
        const actual = START.test(step.command) ? `Listening on ${url}\n${service.stderr()}` : (outputs[i] ?? '');
        const shown = step.shown.join('\n').replaceAll(DOCUMENTED_URL, url);
        if (!matches(shown, actual)) {
          problems.push(`${page}, block "${step.block.firstLine}": \`${step.command}\`\n  the page shows:\n${shown}\n  the service answered:\n${actual}`);
        }
      }
      if (problems.length > 0) assert.fail(problems.join('\n\n'));
    });
  }
});
