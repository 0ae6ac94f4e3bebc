// The README, SECURITY.md, CHANGELOG.md and docs/ are read in a repository's file view, where a
// relative link is a path in the tree and a #fragment a heading of the target page. Every such
// link must reach an existing file (and heading), so a page renamed or a heading reworded fails
// here rather than leaving readers a dead link; and the README stays a short entry point.

import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { anchors } from '../_helpers/readme.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const README_MAX_LINES = 350;

function pages(): string[] {
  const docs = readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => join(ROOT, 'docs', name));
  return [join(ROOT, 'README.md'), join(ROOT, 'SECURITY.md'), join(ROOT, 'CHANGELOG.md'), ...docs];
}

/** The text a reader sees as prose: fenced blocks and code spans hold examples, not links. */
function prose(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** The relative links of one page that reach no file, or no heading of their target. */
function brokenLinks(markdown: string, pageDir: string): string[] {
  const broken: string[] = [];
  for (const match of prose(markdown).matchAll(/\]\(([^)\s]+)(?: "[^"]*")?\)/g)) {
    const target = match[1] as string;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto: and the like
    const hash = target.indexOf('#');
    const path = hash === -1 ? target : target.slice(0, hash);
    const fragment = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
    const file = path === '' ? undefined : join(pageDir, decodeURIComponent(path));
    if (file !== undefined && !existsSync(file)) {
      broken.push(`${target}: no such file`);
      continue;
    }
    if (fragment === undefined) continue;
    const text = file === undefined ? markdown : statSync(file).isFile() ? readFileSync(file, 'utf8') : '';
    if (!anchors(text).has(fragment)) broken.push(`${target}: no heading #${fragment}`);
  }
  return broken;
}

describe('documentation links', () => {
  it('the checker finds a missing file, a missing heading, and none in code', () => {
    const page = '# Title\n\n## A `code` heading\n\n[ok](#title) [ok](#a-code-heading) [bad](#nope) [bad](missing.md) `[code](missing.md)`\n';
    assert.deepEqual(brokenLinks(page, ROOT), ['#nope: no heading #nope', 'missing.md: no such file']);
  });

  for (const page of pages()) {
    const name = relative(ROOT, page);
    it(`${name}: every relative link reaches an existing file and heading`, () => {
      assert.deepEqual(brokenLinks(readFileSync(page, 'utf8'), dirname(page)), []);
    });
  }

  it(`README.md stays within ${README_MAX_LINES} lines`, () => {
    const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').length - 1;
    assert.ok(lines <= README_MAX_LINES, `README.md has ${lines} lines; the detail belongs in docs/`);
  });
});
