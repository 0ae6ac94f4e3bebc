// The workspace controls (docs/management-api.md, docs/journal.md#workspace-export, docs/inspector.md): the service clock with advance and set, Reset
// workspace, loading a fixture from a file or pasted JSON, and the health line of the header. The
// export is a plain same-origin download link in the markup (GET /__svc/fixtures). Reset and the
// two loads replace the workspace, so their buttons ask first (data-confirm in the markup, dom.js
// confirmBeforeActing).

import { api } from './api.js';
import { byId, field, onClick, onSubmit } from './dom.js';

/** @typedef {{ now: string, offsetSeconds: number }} ClockState */
/** @typedef {{ status: string, store: string, version: string, uptimeSeconds: number }} Health */

/** @param {() => Promise<void>} changed called after every change, so that the other panels catch up */
export function createWorkspacePanel(changed) {
  const clockNow = byId('clock-now', HTMLParagraphElement);
  const health = byId('health', HTMLParagraphElement);
  const fixtureResult = byId('fixture-result', HTMLParagraphElement);

  /** @param {ClockState} clock */
  function showClock(clock) {
    const offset = clock.offsetSeconds === 0 ? 'real time' : `${clock.offsetSeconds > 0 ? '+' : ''}${clock.offsetSeconds} s from real time`;
    clockNow.textContent = `Service clock: ${clock.now} (${offset})`;
  }

  /** @param {unknown} fixture */
  async function loadFixture(fixture) {
    const answer = /** @type {{ loaded: Record<string, number> }} */ (await api('POST', '/__svc/fixtures', fixture));
    const counts = Object.entries(answer.loaded).map(([what, n]) => `${n} ${what}`);
    fixtureResult.textContent = `Fixture loaded: ${counts.join(', ')}.`;
    await changed();
  }

  /** @param {string} text @param {string} source */
  function parseFixture(text, source) {
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new Error(`${source} is not JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  onSubmit(byId('clock-advance', HTMLFormElement), async (fields) => {
    showClock(await api('POST', '/__svc/clock', { advanceSeconds: Number(field(fields, 'seconds')) }));
    await changed();
  });
  onSubmit(byId('clock-set', HTMLFormElement), async (fields) => {
    showClock(await api('POST', '/__svc/clock', { now: field(fields, 'now') }));
    await changed();
  });
  onClick(byId('reset', HTMLButtonElement), async () => {
    await api('POST', '/__svc/reset');
    fixtureResult.textContent = 'Workspace reset to the startup fixture.';
    await changed();
  });
  onSubmit(byId('fixture-file', HTMLFormElement), async (fields) => {
    const file = fields.get('file');
    if (!(file instanceof File) || file.name === '') throw new Error('Choose a fixture file first.');
    await loadFixture(parseFixture(await file.text(), file.name));
  });
  onSubmit(byId('fixture-text', HTMLFormElement), async (fields) => {
    await loadFixture(parseFixture(field(fields, 'json'), 'The pasted fixture'));
  });

  return {
    async refresh() {
      const [clock, state] = await Promise.all([api('GET', '/__svc/clock'), api('GET', '/__svc/health')]);
      showClock(clock);
      const h = /** @type {Health} */ (state);
      health.textContent = `Service ${h.status} · store ${h.store} · version ${h.version} · up ${Math.round(h.uptimeSeconds)} s`;
    },
  };
}
