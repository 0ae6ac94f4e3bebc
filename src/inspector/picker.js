// The workspace picker (docs/workspaces.md): the root and every workspace of GET /__svc/workspaces, each
// opening its own inspector. The list is the root's, so it is asked for without the page's
// prefix; on a workspace's own port there is no root to ask, and the picker stays hidden.

import { PREFIX } from './api.js';

export async function createWorkspacePicker() {
  const picker = /** @type {HTMLSelectElement} */ (document.getElementById('workspace-picker'));
  const label = /** @type {HTMLElement} */ (picker.closest('label'));
  let workspaces;
  try {
    const response = await fetch('/__svc/workspaces');
    if (!response.ok) return;
    workspaces = /** @type {{ workspaces: { id: string }[] }} */ (await response.json()).workspaces;
  } catch {
    return;
  }
  const choices = [{ value: '', text: 'root' }, ...workspaces.map((w) => ({ value: `/w/${w.id}`, text: w.id }))];
  picker.replaceChildren(
    ...choices.map((choice) => {
      const option = document.createElement('option');
      option.value = choice.value;
      option.textContent = choice.text;
      option.selected = choice.value === PREFIX;
      return option;
    }),
  );
  picker.addEventListener('change', () => location.assign(`${picker.value}/__svc/ui`));
  label.hidden = false;
}
