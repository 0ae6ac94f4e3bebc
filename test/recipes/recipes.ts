// The recipes of README "Testing your app": test files for four test runners that drive the
// service through the test handle, run here as a reader runs them in their own project: from a
// scratch folder outside the repository where the runners are installed (never project
// dependencies), importing the handle by its package name.

import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const RECIPES_DIR = new URL('.', import.meta.url).pathname;

/** Where install.sh puts the runners, and where the recipes run. */
export const SCRATCH_DIR = process.env.RECIPES_SCRATCH_DIR ?? join(homedir(), '.cache', 'local-calendar-emulator', 'recipes');

const CHROMIUM = '/usr/bin/chromium';

export interface Recipe {
  runner: string;
  /** The recipe, relative to test/recipes/; the README shows it verbatim. */
  file: string;
  /** Why it cannot run on this machine, or undefined when it can. */
  unavailable(): string | undefined;
  /** The command, run in SCRATCH_DIR; argv[0] is the Node that runs this script. */
  argv(): string[];
  /** Files the runner needs beside the recipe (its configuration), by name. */
  config?: Readonly<Record<string, string>>;
  /** How this run differs from the README's, printed beside the result. */
  note?: string;
}

const installed = (name: string, bin: string): string | undefined =>
  existsSync(join(SCRATCH_DIR, 'node_modules', name, bin)) ? undefined : `${name} is not installed in ${SCRATCH_DIR} (test/recipes/install.sh)`;

export const RECIPES: readonly Recipe[] = [
  {
    runner: 'node:test',
    file: 'node-test.test.mjs',
    unavailable: () => undefined,
    argv: () => [process.execPath, '--test', 'node-test.test.mjs'],
  },
  {
    runner: 'vitest',
    file: 'vitest.test.mjs',
    unavailable: () => installed('vitest', 'vitest.mjs'),
    argv: () => [process.execPath, join('node_modules', 'vitest', 'vitest.mjs'), 'run', 'vitest.test.mjs'],
  },
  {
    runner: 'jest',
    file: 'jest.test.mjs',
    unavailable: () => installed('jest', join('bin', 'jest.js')),
    argv: () => [process.execPath, '--experimental-vm-modules', '--no-warnings', join('node_modules', 'jest', 'bin', 'jest.js'), '--ci', 'jest.test.mjs'],
    // A source checkout's handle is TypeScript; jest transforms nothing it is not told to. The
    // installed package ships JavaScript and needs none of this.
    config: {
      'jest.config.cjs': `module.exports = { testEnvironment: 'node', extensionsToTreatAsEsm: ['.ts'], transform: { '\\\\.ts$': '<rootDir>/strip-types.cjs' } };\n`,
      'strip-types.cjs': `const { stripTypeScriptTypes } = require('node:module');\nmodule.exports = { process: (source) => ({ code: stripTypeScriptTypes(source) }) };\n`,
    },
    note: 'with a transform that strips the types of the source checkout',
  },
  {
    runner: 'playwright',
    file: 'playwright.spec.mjs',
    unavailable: () => installed('@playwright/test', 'cli.js') ?? (existsSync(CHROMIUM) ? undefined : `needs ${CHROMIUM} (apt-get install chromium)`),
    argv: () => [process.execPath, join('node_modules', '@playwright', 'test', 'cli.js'), 'test', '--config', 'playwright.config.mjs'],
    config: {
      'playwright.config.mjs': `export default { testDir: '.', testMatch: 'playwright.spec.mjs', workers: 1, use: { launchOptions: { executablePath: '${CHROMIUM}' } } };\n`,
    },
    note: `in Debian's Chromium (${CHROMIUM}) instead of a browser Playwright downloads`,
  },
];
