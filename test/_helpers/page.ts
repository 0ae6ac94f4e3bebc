// Driving one page of the CDP browser (test/_helpers/cdp.ts) the way a person would: find a
// button by its visible text, a field by its label's text, and wait for the page to show
// something. Every wait is bounded. Also gathers what the page reports as wrong: console errors,
// uncaught exceptions and Content-Security-Policy violations; and answers its dialogs.

import type { Browser } from './cdp.ts';

export interface Page {
  readonly session: string;
  /** The value of a JavaScript expression in the page (promises awaited). */
  evaluate<T = unknown>(expression: string): Promise<T>;
  /** Waits until the expression is truthy, and returns its value. */
  waitUntil<T = unknown>(expression: string, what: string, timeoutMs?: number): Promise<T>;
  /** Clicks the button (or link) whose visible text is exactly `text`, inside `scope` (a CSS selector). */
  click(text: string, scope?: string): Promise<void>;
  /** Types `value` into the field whose label starts with `label`, inside `scope`, as input and change events. */
  fill(label: string, value: string, scope?: string): Promise<void>;
  /** Console errors, exceptions and CSP violations seen so far. */
  readonly problems: string[];
  /**
   * How the page's dialogs (window.confirm before a destructive action) are answered: accepted
   * unless set to false, as a person going on with what they clicked would.
   */
  acceptDialogs: boolean;
  /** The message of every dialog the page opened, in order. */
  readonly dialogs: string[];
}

const POLL_MS = 50;

/** The first truthy value `check` gives, asked every 50 ms for at most `timeoutMs`. */
export async function eventually<T>(check: () => T | Promise<T>, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (performance.now() > deadline) throw new Error(`no ${what} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

export async function openPage(browser: Browser, url: string): Promise<Page> {
  const { cdp } = browser;
  const session = await browser.newPage();
  const problems: string[] = [];
  const dialogs: string[] = [];
  // A dialog holds the page (and the evaluate that clicked) until it is answered.
  const dialogAnswer = { accept: true };
  cdp.on('Page.javascriptDialogOpening', session, (p) => {
    dialogs.push(p.message);
    cdp.send('Page.handleJavaScriptDialog', { accept: dialogAnswer.accept }, session).catch((error: Error) => problems.push(`dialog: ${error.message}`));
  });
  cdp.on('Runtime.consoleAPICalled', session, (p) => {
    if (p.type === 'error' || p.type === 'assert') problems.push(`console.${p.type}: ${p.args.map((a: { value?: unknown; description?: string }) => a.value ?? a.description).join(' ')}`);
  });
  cdp.on('Runtime.exceptionThrown', session, (p) => problems.push(`exception: ${p.exceptionDetails.exception?.description ?? p.exceptionDetails.text}`));
  cdp.on('Log.entryAdded', session, (p) => {
    if (p.entry.level === 'error') problems.push(`log (${p.entry.source}): ${p.entry.text}`);
  });
  await cdp.send('Runtime.enable', {}, session);
  await cdp.send('Log.enable', {}, session);
  await cdp.send('Page.enable', {}, session);
  // Registered before any of the page's own scripts run; a script added over CDP is exempt from the CSP.
  await cdp.send(
    'Page.addScriptToEvaluateOnNewDocument',
    { source: `document.addEventListener('securitypolicyviolation', (e) => console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI))` },
    session,
  );
  const loaded = cdp.waitFor('Page.loadEventFired', session);
  await cdp.send('Page.navigate', { url }, session);
  await loaded;

  const evaluate = async <T>(expression: string): Promise<T> => {
    const answer = await cdp.send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true }, session);
    if (answer.exceptionDetails) throw new Error(`${expression}: ${answer.exceptionDetails.exception?.description ?? answer.exceptionDetails.text}`);
    return answer.result.value as T;
  };
  const waitUntil = <T>(expression: string, what: string, timeoutMs = 10_000): Promise<T> =>
    eventually(() => evaluate<T>(expression), `the page showing ${what} (problems: ${problems.join('; ') || 'none'})`, timeoutMs);
  return {
    session,
    problems,
    dialogs,
    get acceptDialogs() {
      return dialogAnswer.accept;
    },
    set acceptDialogs(accept: boolean) {
      dialogAnswer.accept = accept;
    },
    evaluate,
    waitUntil,
    async click(text, scope = 'body') {
      const clicked = await evaluate<boolean>(`(() => {
        const target = [...document.querySelectorAll(${JSON.stringify(scope)} + ' :is(button, a, summary)')].find((el) => el.textContent.trim() === ${JSON.stringify(text)});
        if (!target) return false;
        target.focus();
        target.click();
        return true;
      })()`);
      if (!clicked) throw new Error(`no button with the text ${JSON.stringify(text)} in ${scope}`);
    },
    async fill(label, value, scope = 'body') {
      const filled = await evaluate<boolean>(`(() => {
        const label = [...document.querySelectorAll(${JSON.stringify(scope)} + ' label')].find((el) => el.textContent.trim().startsWith(${JSON.stringify(label)}));
        const control = label && (label.control ?? label.querySelector('input, select, textarea'));
        if (!control) return false;
        control.focus();
        control.value = ${JSON.stringify(value)};
        control.dispatchEvent(new Event('input', { bubbles: true }));
        control.dispatchEvent(new Event('change', { bubbles: true }));
        return control.value === ${JSON.stringify(value)};
      })()`);
      if (!filled) throw new Error(`no field labelled ${JSON.stringify(label)} in ${scope} that takes ${JSON.stringify(value)}`);
    },
  };
}
