// Screenshots of a browser test's page, for a person to look at: PNGs written to the folder named
// by INSPECTOR_SCREENSHOTS, else to local-calendar-emulator-screenshots in the OS temp folder
// (both outside the repository, where a CI run can keep them), each path printed as a test
// diagnostic.

import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from './cdp.ts';
import type { Page } from './page.ts';

export const SCREENSHOT_DIR = process.env.INSPECTOR_SCREENSHOTS || join(tmpdir(), 'local-calendar-emulator-screenshots');

/** Resizes the page's window (CSS pixels, as a desktop browser's). */
export async function resize(browser: Browser, page: Page, width: number, height: number): Promise<void> {
  await browser.cdp.send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: false }, page.session);
}

/** Saves what the window shows as `<name>.png` and returns its path. */
export async function screenshot(t: { diagnostic(message: string): void }, browser: Browser, page: Page, name: string): Promise<string> {
  // Two frames, so that what the test just changed has been painted.
  await page.evaluate(`new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))`);
  const { data } = await browser.cdp.send('Page.captureScreenshot', { format: 'png' }, page.session);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  writeFileSync(path, Buffer.from(data as string, 'base64'));
  t.diagnostic(`screenshot: ${path}`);
  return path;
}
