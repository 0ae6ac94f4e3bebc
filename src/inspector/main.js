// The inspector page's entry module (docs/inspector.md): makes each panel, loads them all, and keeps
// them current. The journal polls the service; when new requests arrive (an app under test did
// something), and every few seconds besides, the other panels reload, each redrawing only what
// changed. An action of the page
// that changes the workspace reloads everything, the journal included.

import { createAccessPanel } from './access.js';
import { attempt, confirmBeforeActing } from './dom.js';
import { createFaultsPanel } from './faults.js';
import { createJournalPanel } from './journal.js';
import { createOutboxPanel } from './outbox.js';
import { createWorkspacePicker } from './picker.js';
import { createWeekPanel } from './week.js';
import { createWorkspacePanel } from './workspace.js';

// New journal entries come in bursts; one reload of the other panels per burst is enough.
const ACTIVITY_DELAY_MS = 300;
// What changes with no request to show for it (webhook deliveries, the clock) is reloaded this often.
const RELOAD_MS = 5000;

confirmBeforeActing();
const week = createWeekPanel();
const access = createAccessPanel(changed);
const faults = createFaultsPanel();
const outbox = createOutboxPanel();
const workspace = createWorkspacePanel(changed);
const journal = createJournalPanel(onActivity);
const panels = [week, access, outbox, faults, workspace];
void createWorkspacePicker();

/** @type {ReturnType<typeof setTimeout> | undefined} */
let pending;

function onActivity() {
  if (pending !== undefined) return;
  pending = setTimeout(() => {
    pending = undefined;
    void reloadPanels();
  }, ACTIVITY_DELAY_MS);
}

// Each panel on its own: one failing (an endpoint missing, a bad address) leaves the others shown.
async function reloadPanels() {
  await Promise.all(panels.map((panel) => attempt(panel.refresh)));
}

async function changed() {
  week.forget();
  await Promise.all([reloadPanels(), attempt(journal.refresh)]);
}

void reloadPanels().then(() => {
  document.body.dataset.ready = 'true';
  void journal.start();
  setInterval(onActivity, RELOAD_MS);
});
