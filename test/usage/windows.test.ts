// The usage limits' options (docs/usage-limits.md) and their per-minute windows (src/usage/): Google's
// numbers by default, per-second buckets, and a bounded number of keys.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OptionError, parseCommandLine } from '../../src/config/config.ts';
import { MAX_KEYS, MinuteWindows } from '../../src/usage/minute-windows.ts';

function serveOptions(argv: string[], env: NodeJS.ProcessEnv = {}) {
  const command = parseCommandLine(argv, env);
  assert.equal(command.kind, 'serve');
  return command.options;
}

describe('--quotas and its limits', () => {
  it('is off by default, with Google\'s numbers (600 per user, 10,000 per project, a minute)', () => {
    const options = serveOptions([]);
    assert.deepEqual([options.quotas, options.quotaUserPerMinute, options.quotaProjectPerMinute], [false, 600, 10_000]);
  });

  it('--quotas or CALENDAR_QUOTAS=1 turns it on; the numbers come from flags or the environment', () => {
    const flags = serveOptions(['--quotas', '--quota-user-per-minute', '5', '--quota-project-per-minute=50']);
    assert.deepEqual([flags.quotas, flags.quotaUserPerMinute, flags.quotaProjectPerMinute], [true, 5, 50]);
    const env = serveOptions([], { CALENDAR_QUOTAS: '1', CALENDAR_QUOTA_USER_PER_MINUTE: '7', CALENDAR_QUOTA_PROJECT_PER_MINUTE: '70' });
    assert.deepEqual([env.quotas, env.quotaUserPerMinute, env.quotaProjectPerMinute], [true, 7, 70]);
  });

  it('refuses a limit that is not a whole number from 1', () => {
    for (const value of ['0', '-1', 'many', '1.5']) {
      assert.throws(() => parseCommandLine(['--quotas', '--quota-user-per-minute', value], {}), OptionError, value);
    }
    assert.throws(() => parseCommandLine([], { CALENDAR_QUOTA_PROJECT_PER_MINUTE: '0' }), OptionError);
  });
});

describe('MinuteWindows', () => {
  it('counts a request in its own second and the 59 after it', () => {
    const windows = new MinuteWindows();
    assert.equal(windows.add('k', 1000), 1);
    assert.equal(windows.add('k', 1030), 2);
    assert.equal(windows.count('k', 1059), 2);
    assert.equal(windows.count('k', 1060), 1);
    assert.equal(windows.count('k', 1090), 0);
    // A bucket reused a minute later starts again from zero.
    assert.equal(windows.add('k', 1120), 1);
    assert.equal(windows.count('other', 1120), 0);
  });

  it('counts the requests of a busy key within one second, and after the clock goes back or on, as summing its buckets would', () => {
    const windows = new MinuteWindows();
    const seconds = [2000, 2000, 2000, 2001, 2001, 1990, 1990, 2000, 2059, 2059, 2060, 2060, 2120, 1000, 1000, 2000];
    const counted: number[] = [];
    for (const second of seconds) {
      windows.add('other', second);
      counted.push(windows.add('k', second));
      assert.equal(counted.at(-1), windows.count('k', second), `at ${second}`);
    }
    assert.deepEqual(counted, [1, 2, 3, 4, 5, 1, 2, 6, 7, 8, 5, 6, 1, 1, 2, 3]);
  });

  it('keeps 60 buckets per key whatever the traffic, and at most MAX_KEYS keys, the least recently counted going first', () => {
    const windows = new MinuteWindows();
    for (let i = 0; i < 100_000; i++) windows.add('busy', 5000);
    assert.equal(windows.count('busy', 5000), 100_000);
    for (let i = 0; i < MAX_KEYS; i++) windows.add(`key-${i}`, 5000);
    // 'busy' was the least recently counted: it made room for key-(MAX_KEYS-1).
    assert.equal(windows.count('busy', 5000), 0);
    assert.equal(windows.count('key-0', 5000), 1);
    windows.add('key-0', 5000);
    windows.add('one-more', 5000);
    assert.equal(windows.count('key-0', 5000), 2, 'counted again, so kept');
    assert.equal(windows.count('key-1', 5000), 0, 'the least recently counted went');
  });
});
