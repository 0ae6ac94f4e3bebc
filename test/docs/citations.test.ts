// Whoever reads the code with only this repository must be able to follow every reference a
// comment makes. So the sources and tests may cite a page of docs/ (with a heading, as
// `docs/faults.md#matching` or `docs/faults.md §Matching`) or a public source (an RFC, Google's
// documentation), but not documents kept outside the tree or issue numbers; and every docs/
// page and heading they name must exist.

import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { anchors, headings } from '../_helpers/readme.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const SCANNED = /\.(?:ts|js|mjs|sh|html|css)$/;
// This file names the patterns it looks for, so it is not scanned itself.
const SELF = relative(ROOT, new URL(import.meta.url).pathname);
const OUTSIDE_THE_TREE = /CONTRACT|BEHAVIOUR\.md|METHODS\.md|STYLE\.md|PERFORMANCE-NOTES|shared\/|[Ii]ssue \d+|issues? #\d+/g;
const DOCS_REFERENCE = /docs\/([\w.-]+)\.md(?:#([\w-]+)| ?§ ?([^\n]*))?/g;

function files(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : files(path);
    return SCANNED.test(entry.name) && path !== SELF ? [path] : [];
  });
}

const sources = [...files('src'), ...files('test')].map((path) => ({ path, text: readFileSync(join(ROOT, path), 'utf8') }));

/** `file:line: text` for each match of `pattern` in the sources. */
function occurrences(pattern: RegExp): { where: string; match: RegExpMatchArray; text: string }[] {
  return sources.flatMap(({ path, text }) =>
    [...text.matchAll(pattern)].map((match) => ({ where: `${path}:${text.slice(0, match.index).split('\n').length}`, match, text })),
  );
}

const normalise = (words: string): string => words.replace(/[`"'*]/g, '').replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * Why a docs/ reference does not resolve, or undefined when it does: the page must exist; an
 * `#anchor` must be one of its headings' anchors; the words after `§` (the rest of the comment,
 * wrapped lines included) must begin with one of its headings.
 */
function unresolved(page: string, anchor: string | undefined, section: string | undefined): string | undefined {
  const file = join(ROOT, 'docs', `${page}.md`);
  if (!existsSync(file)) return `docs/${page}.md does not exist`;
  const markdown = readFileSync(file, 'utf8');
  if (anchor !== undefined && !anchors(markdown).has(anchor)) return `docs/${page}.md has no heading #${anchor}`;
  if (section !== undefined) {
    const cited = normalise(section);
    const found = headings(markdown).some((heading) => {
      const words = normalise(heading);
      return cited.startsWith(words) && !/[\p{L}\p{N}]/u.test(cited.charAt(words.length));
    });
    if (!found) return `docs/${page}.md has no heading that "§${section.trim()}" begins with`;
  }
  return undefined;
}

/** The cited words after `§`: the rest of the line and the next two, comment markers dropped. */
function sectionWords(text: string, match: RegExpMatchArray): string | undefined {
  if (match[3] === undefined) return undefined;
  const start = (match.index as number) + match[0].length - match[3].length;
  return text
    .slice(start)
    .split('\n')
    .slice(0, 3)
    .map((line) => line.replace(/^\s*(?:\/\/+|\/?\*+\/?|#|<!--)\s?/, '').replace(/\s*(?:\*\/|-->)\s*$/, ''))
    .join(' ');
}

test('the docs/ reference checker', () => {
  assert.equal(unresolved('faults', undefined, undefined), undefined);
  assert.match(unresolved('no-such-page', undefined, undefined) ?? '', /does not exist/);
  const heading = headings(readFileSync(join(ROOT, 'docs', 'faults.md'), 'utf8'))[1] as string;
  assert.equal(unresolved('faults', undefined, `${heading}: and more words`), undefined);
  assert.match(unresolved('faults', undefined, `${heading}s`) ?? '', /no heading/);
  assert.match(unresolved('faults', 'no-such-heading', undefined) ?? '', /no heading #no-such-heading/);
});

test('every docs/ page and heading the sources and tests cite exists', () => {
  const broken = occurrences(DOCS_REFERENCE).flatMap(({ where, match, text }) => {
    const why = unresolved(match[1] as string, match[2], sectionWords(text, match));
    return why === undefined ? [] : [`${where}: ${why}`];
  });
  assert.deepEqual(broken, []);
});

// Not a citation but a path in code: the quickstart test reads Google's discovery document from
// beside the clone, for Debian's old Python client. Whether to keep a copy in the tree is open.
const CODE_PATHS = new Set(['test/quickstarts/languages.ts:56: shared/']);

const outside = occurrences(OUTSIDE_THE_TREE).filter(({ where, match }) => !CODE_PATHS.has(`${where}: ${match[0]}`));
test('the sources and tests cite no document outside the tree and no issue number', () => {
  const listed = outside.slice(0, 20).map(({ where, match }) => `${where}: ${match[0]}`);
  assert.equal(outside.length, 0, [...listed, outside.length > 20 ? `… and ${outside.length - 20} more` : ''].join('\n'));
});
