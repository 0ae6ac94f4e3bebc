// The journal's size option (docs/journal.md): --journal-size, env CALENDAR_JOURNAL_SIZE (the flag
// wins), 0 off, anything but a whole number from 0 to 1,000,000 refused at startup.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { OptionError, parseCommandLine } from '../../src/config/config.ts';
import { startCli } from '../_helpers/cli-process.ts';
import { readJournal } from '../_helpers/journal.ts';
import { nodeTsArgs } from '../_helpers/node.ts';

const MAIN = new URL('../../src/main.ts', import.meta.url).pathname;

function journalSize(argv: string[], env: Record<string, string> = {}): number {
  const command = parseCommandLine(argv, env);
  assert.equal(command.kind, 'serve');
  return command.kind === 'serve' ? command.options.journalSize : -1;
}

describe('the journal size option', () => {
  it('defaults to 10,000; the flag and the environment set it, the flag winning', () => {
    assert.equal(journalSize([]), 10_000);
    assert.equal(journalSize(['--journal-size', '5']), 5);
    assert.equal(journalSize(['--journal-size=0']), 0);
    assert.equal(journalSize([], { CALENDAR_JOURNAL_SIZE: '250' }), 250);
    assert.equal(journalSize(['--journal-size', '7'], { CALENDAR_JOURNAL_SIZE: '250' }), 7);
  });

  it('refuses anything but a whole number from 0 to 1,000,000', () => {
    for (const value of ['-1', '1.5', 'ten', '1e3', '1000001', ' 5']) {
      assert.throws(() => parseCommandLine(['--journal-size', value], {}), (error: unknown) => {
        assert.ok(error instanceof OptionError);
        assert.equal(error.message, `--journal-size must be an integer from 0 to 1000000, got ${JSON.stringify(value)}`);
        return true;
      });
      assert.throws(() => parseCommandLine([], { CALENDAR_JOURNAL_SIZE: value }), OptionError);
    }
  });

  it('the CLI keeps that many entries', async () => {
    const service = await startCli(':memory:', ['--journal-size', '2']);
    try {
      for (const path of ['/a', '/b', '/c']) await fetch(`${service.url}${path}`);
      assert.deepEqual((await readJournal(service.url)).requests.map((e) => e.path), ['/b', '/c']);
    } finally {
      service.child.kill('SIGTERM');
      await service.exited;
    }
  });

  it('the CLI exits 2 with one line for a bad CALENDAR_JOURNAL_SIZE', async () => {
    const failed = await promisify(execFile)(process.execPath, [...nodeTsArgs, MAIN, '--port', '0'], { env: { ...process.env, CALENDAR_JOURNAL_SIZE: 'lots' }, timeout: 20_000 }).then(
      () => assert.fail('the CLI started'),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    assert.equal(failed.code, 2);
    assert.equal(failed.stderr, 'error: --journal-size must be an integer from 0 to 1000000, got "lots"\n');
    assert.equal(failed.stdout, '');
  });
});
