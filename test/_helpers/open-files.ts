// The files this process (any of its threads) has open, from /proc/self/fd: a test's view of
// which database files have a connection, whatever opened them.

import { existsSync, readdirSync, readlinkSync } from 'node:fs';

/** The skip option of a test that reads open files: it needs /proc (Linux). */
export const OPEN_FILES_SKIP = existsSync('/proc/self/fd') ? false : 'needs /proc/self/fd (Linux)';

/** How many of this process's file descriptors are open on a path `matches` accepts. */
export function openFiles(matches: (path: string) => boolean): number {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return matches(readlinkSync(`/proc/self/fd/${fd}`));
    } catch {
      // Closed since the directory was read.
      return false;
    }
  }).length;
}
