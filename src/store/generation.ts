// The workspace generation: a counter in the store's meta table, bumped whenever the workspace is
// replaced (reset or fixture load). Page and sync tokens carry it (calendar/paging.ts), so a token
// from before the replacement is recognised as stale. It lives beside the store, not in the
// calendar API, because the composition root (src/app/app.ts) bumps it and must not import the API.

import type { Store } from './store.ts';

const GENERATION = 'generation';

export function workspaceGeneration(store: Store): string {
  return store.getMeta(GENERATION) ?? '0';
}

/** Called when the workspace is replaced: every earlier sync and page token becomes stale. */
export function bumpGeneration(store: Store): void {
  store.setMeta(GENERATION, String(Number(workspaceGeneration(store)) + 1));
}
