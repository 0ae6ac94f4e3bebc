// docs/journal.md: how a body is kept, read once when it is recorded. Each reading is tried
// whatever Content-Type said; strings inside a body are read the same way; what no reading takes
// is kept as its size, as is what would overdraw the reading's budget; token-shaped runs are
// scrubbed wherever they appear; and the ring is bounded by bytes as well as entries.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Clock } from '../../src/domain/clock.ts';
import { emptyTrace } from '../../src/http/request.ts';
import type { ApiRequest } from '../../src/http/request.ts';
import { json } from '../../src/http/result.ts';
import { bodyText } from '../../src/journal/body.ts';
import { Journal } from '../../src/journal/journal.ts';
import { mintAccessToken } from '../../src/oauth/token-format.ts';
import { randomToken } from '../../src/crypto/crypto.ts';

const kept = (body: string): unknown => JSON.parse(bodyText(Buffer.from(body)));
const R = '[redacted]';

describe('a body as the journal keeps it', () => {
  it('JSON, multipart parts and forms are read whatever the type; what none reads is its size', () => {
    assert.deepEqual(kept('{"refresh_token":"r-1","grant_type":"refresh_token"}'), { refresh_token: R, grant_type: 'refresh_token' });
    assert.deepEqual(kept('--b\r\nContent-Disposition: form-data; name="code"\r\n\r\nc-1\r\n--b\r\nContent-Disposition: form-data; name="user"\r\n\r\naiko\r\n--b--\r\n'), { code: R, user: 'aiko' });
    assert.deepEqual(kept('grant_type=refresh_token&Refresh_Token=r-1'), { grant_type: 'refresh_token', Refresh_Token: R });
    assert.deepEqual(kept('hello world'), { unparsed: true, bytes: 11 });
    assert.deepEqual(kept('42'), 42);
  });

  it('a string that holds a secret in any reading reads "[redacted]" whole', () => {
    const cases: Array<[string, unknown]> = [
      ['{"description":"a=1&client_secret=s-1"}', { description: R }],
      ['{"description":"{\\"nonce\\":\\"n-1\\"}"}', { description: R }],
      ['payload=%7B%22token%22%3A%22t-1%22%7D&x=1', { payload: R, x: '1' }],
      ['x=refresh_token%253Dr-1', { x: R }],
      ['{"b":2,"a&code=c-1":1}', { b: 2, [R]: R }],
      ['{"notes":"{refresh_token: \'r-1\'}"}', { notes: R }],
      ['{"summary":"Lunch","description":"Room 4, see https://example.com/?a=1&b=2"}', { summary: 'Lunch', description: 'Room 4, see https://example.com/?a=1&b=2' }],
    ];
    for (const [body, shown] of cases) assert.deepEqual(kept(body), shown, body);
  });

  it('a secret-named form field running across JSON strings withholds the whole body', () => {
    const parts = '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nx&token=\r\n--b\r\nContent-Disposition: form-data; name=b\r\n\r\nt-1\r\n--b--';
    for (const body of ['{"a":"&token=","b":"t-1"}', '["&token=", "t-1"]', parts]) assert.deepEqual(kept(body), { redacted: true, bytes: body.length }, body);
    // A field at the end of a string or part runs only into what closes it.
    assert.deepEqual(kept('{"a":"x&token=t-1"}'), { a: R });
    assert.deepEqual(kept('--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nx&token=t-1\r\n--b--\r\n'), { a: R });
  });

  it('the service’s own tokens are scrubbed under any name; lower-case ids of that length are not', () => {
    const access = mintAccessToken(Date.UTC(2026, 9, 19));
    const refresh = randomToken();
    const id = 'a'.repeat(43);
    assert.deepEqual(kept(JSON.stringify({ note: `see ${access}`, list: [refresh], id })), { note: `see ${R}`, list: [R], id });
  });

  it('a body too deep, too wide, read too often or serialized past 64 KiB is kept as truncated', () => {
    for (const body of ['['.repeat(101) + ']'.repeat(101), `[${'0,'.repeat(10_000)}0]`, `a=${'a='.repeat(20_000)}`, `a=${'%01'.repeat(20_000)}`]) {
      assert.deepEqual(kept(body), { truncated: true, bytes: body.length }, body.slice(0, 20));
    }
    assert.deepEqual(kept('['.repeat(99) + ']'.repeat(99)), JSON.parse('['.repeat(99) + ']'.repeat(99)));
  });
});

describe('the ring', () => {
  const request = (body: string): ApiRequest => ({ method: 'POST', path: '/x', query: new URLSearchParams(), search: '', headers: {}, body: Buffer.from(body), baseUrl: '', localPort: 0, trace: emptyTrace() });

  it('holds at most 16 MiB of entries, dropping the oldest first', () => {
    const journal = new Journal(10_000, new Clock(() => 0), { info() {}, error() {} });
    const body = JSON.stringify({ summary: 'x'.repeat(60_000) });
    for (let i = 0; i < 400; i++) journal.record(request(body), json(200, {}), 1);
    const page = Buffer.concat(journal.read({ since: 0, limit: 1_000 }));
    const { requests, last } = JSON.parse(page.toString()) as { requests: Array<{ id: number }>; last: number };
    assert.ok(page.length <= 16 * 1024 * 1024 + 100, `${page.length} bytes`);
    assert.ok(requests.length > 250 && requests.length < 280, `${requests.length} entries`);
    assert.equal(last, 400);
    assert.equal(requests.at(-1)?.id, 400);
  });
});
