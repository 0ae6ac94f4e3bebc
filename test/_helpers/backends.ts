// The two stores an HTTP test can run the service on (every store test on
// both): `--db :memory:`, and a SQLite file in a directory removed after the test, skipped with
// a visible reason where node:sqlite is missing.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SQLITE_SKIP } from './node.ts';

export const BACKENDS = ['memory', 'sqlite'] as const;
export type Backend = (typeof BACKENDS)[number];

/** The skip option of a test on `backend`. */
export function skipUnless(backend: Backend): string | false {
  return backend === 'sqlite' ? SQLITE_SKIP : false;
}

/** The `db` start option for `backend`: a new SQLite file removed after the test, or memory. */
export function databaseFor(t: { after(fn: () => unknown): void }, backend: Backend): string {
  if (backend === 'memory') return ':memory:';
  const dir = mkdtempSync(join(tmpdir(), 'calendar-test-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'calendar.db');
}
