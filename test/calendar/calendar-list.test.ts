// calendarList.* over HTTP: rendering, list parameters, paging and sync, conditional requests,
// the writable fields and their validation, insert and delete in the single-owner model.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { start } from '../../src/index.ts';
import { nearestColorId, defaultColorId, CALENDAR_PALETTE } from '../../src/calendar/colors.ts';
import { AIKO, BEN_PRIVATE, CALENDAR_FIXTURE, HIDDEN, NOT_FOUND, TEAM, api, reason, tokenFor } from '../_helpers/calendar.ts';
import { useSignedIn } from '../_helpers/signed-in.ts';
import type { SignedIn } from '../_helpers/signed-in.ts';
import { SQLITE_SKIP } from '../_helpers/node.ts';
import { call } from '../_helpers/service.ts';
import type { Answer } from '../_helpers/service.ts';

const LIST = 'users/me/calendarList';

function assertInvalid(res: Answer, message: string, location?: string): void {
  assert.equal(res.status, 400, res.text);
  const expected: Record<string, string> = { domain: 'global', reason: 'invalid', message };
  if (location) Object.assign(expected, { locationType: 'parameter', location });
  assert.deepEqual(reason(res), expected);
}

async function listAll(client: SignedIn, query: string): Promise<{ ids: string[]; pages: Answer[] }> {
  const pages: Answer[] = [];
  const ids: string[] = [];
  let pageToken: string | undefined;
  do {
    const res = await client.api(`${LIST}?${query}${pageToken ? `&pageToken=${encodeURIComponent(pageToken)}` : ''}`);
    assert.equal(res.status, 200, res.text);
    pages.push(res);
    ids.push(...res.json.items.map((item: { id: string }) => item.id));
    pageToken = res.json.nextPageToken;
  } while (pageToken);
  return { ids, pages };
}

describe('calendarList rendering', () => {
  const client = useSignedIn({ scope: 'calendar.calendarlist' });

  it('lists the visible entries in a calendar#calendarList envelope ending with nextSyncToken', async () => {
    const res = await client.api(LIST);
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.json), ['kind', 'etag', 'nextSyncToken', 'items']);
    assert.equal(res.json.kind, 'calendar#calendarList');
    assert.match(res.json.etag, /^"\d{16}"$/);
    assert.deepEqual(res.json.items.map((i: { id: string }) => i.id), [AIKO, TEAM]);
  });

  it('renders the primary entry like the live sample', async () => {
    const res = await client.api(`${LIST}/primary`);
    const colorId = defaultColorId(AIKO);
    assert.deepEqual(res.json, {
      kind: 'calendar#calendarListEntry',
      etag: res.json.etag,
      id: AIKO,
      summary: 'Aiko Tanaka',
      timeZone: 'Asia/Tokyo',
      colorId,
      backgroundColor: CALENDAR_PALETTE.get(colorId),
      foregroundColor: '#000000',
      selected: true,
      accessRole: 'owner',
      defaultReminders: [{ method: 'popup', minutes: 30 }],
      notificationSettings: {
        notifications: [
          { type: 'eventCreation', method: 'email' },
          { type: 'eventChange', method: 'email' },
          { type: 'eventCancellation', method: 'email' },
          { type: 'eventResponse', method: 'email' },
        ],
      },
      primary: true,
      conferenceProperties: { allowedConferenceSolutionTypes: ['hangoutsMeet'] },
    });
    assert.equal(res.headers.get('etag'), res.json.etag);
  });

  it('renders a secondary entry with its calendar details, fixture colour and data owner', async () => {
    const res = await client.api(`${LIST}/${encodeURIComponent(TEAM)}`);
    assert.deepEqual(res.json, {
      kind: 'calendar#calendarListEntry',
      etag: res.json.etag,
      id: TEAM,
      summary: 'Team',
      description: 'Team calendar',
      location: 'Tokyo',
      timeZone: 'Asia/Tokyo',
      colorId: '7',
      backgroundColor: '#42d692',
      foregroundColor: '#000000',
      selected: true,
      accessRole: 'owner',
      defaultReminders: [],
      conferenceProperties: { allowedConferenceSolutionTypes: ['hangoutsMeet'] },
      dataOwner: AIKO,
    });
  });

  it('get returns a hidden entry with hidden: true', async () => {
    const res = await client.api(`${LIST}/${HIDDEN}`);
    assert.equal(res.status, 200);
    assert.equal(res.json.hidden, true);
    assert.equal(res.json.timeZone, 'UTC');
  });

  it('another user\'s calendar and unknown ids are 404 notFound', async () => {
    for (const id of [BEN_PRIVATE, 'ben.carter@example.com', 'nobody@example.com']) {
      const res = await client.api(`${LIST}/${encodeURIComponent(id)}`);
      assert.equal(res.status, 404, id);
      assert.deepEqual(res.json, NOT_FOUND);
    }
  });
});

describe('calendarList.list parameters', () => {
  const client = useSignedIn({ scope: 'calendar.calendarlist' });

  it('showHidden=true adds hidden entries', async () => {
    const res = await client.api(`${LIST}?showHidden=true`);
    assert.deepEqual(res.json.items.map((i: { id: string }) => i.id), [AIKO, HIDDEN, TEAM]);
    assert.equal(res.json.items[1].hidden, true);
  });

  it('minAccessRole: the owner holds every role; other values are 400', async () => {
    for (const role of ['owner', 'writer', 'reader', 'freeBusyReader']) {
      const res = await client.api(`${LIST}?minAccessRole=${role}`);
      assert.equal(res.json.items.length, 2, role);
    }
    assertInvalid(await client.api(`${LIST}?minAccessRole=admin`), 'minAccessRole must be one of freeBusyReader, reader, writer, owner', 'minAccessRole');
  });

  it('booleans must be true or false', async () => {
    assertInvalid(await client.api(`${LIST}?showDeleted=yes`), 'showDeleted must be true or false', 'showDeleted');
    assertInvalid(await client.api(`${LIST}?showHidden=1`), 'showHidden must be true or false', 'showHidden');
  });

  it('maxResults: at least 1, a whole number, capped at 250', async () => {
    for (const bad of ['0', '-1', 'abc', '1.5', '']) {
      assertInvalid(await client.api(`${LIST}?maxResults=${bad}`), 'maxResults must be an integer of at least 1', 'maxResults');
    }
    const big = await client.api(`${LIST}?maxResults=100000&showHidden=true`);
    assert.equal(big.json.items.length, 3);
    assert.ok(big.json.nextSyncToken);
  });

  it('pages with maxResults=1: nextPageToken until the last page, which alone has nextSyncToken', async () => {
    const { ids, pages } = await listAll(client, 'maxResults=1&showHidden=true');
    assert.deepEqual(ids, [AIKO, HIDDEN, TEAM]);
    assert.equal(pages.length, 3);
    for (const page of pages.slice(0, -1)) {
      assert.ok(page.json.nextPageToken);
      assert.equal(page.json.nextSyncToken, undefined);
    }
    assert.equal(pages.at(-1)?.json.nextPageToken, undefined);
    assert.ok(pages.at(-1)?.json.nextSyncToken);
  });

  it('refuses a garbage page token, and one replayed with other filters', async () => {
    assertInvalid(await client.api(`${LIST}?pageToken=garbage`), 'Invalid page token value.', 'pageToken');
    const first = await client.api(`${LIST}?maxResults=1&showHidden=true`);
    const replay = await client.api(`${LIST}?maxResults=1&pageToken=${encodeURIComponent(first.json.nextPageToken)}`);
    assertInvalid(replay, 'Invalid page token value.', 'pageToken');
  });

  it('the list etag is stable while nothing changes', async () => {
    const a = await client.api(LIST);
    const b = await client.api(LIST);
    assert.equal(a.json.etag, b.json.etag);
    assert.equal(a.headers.get('etag'), a.json.etag);
  });
});

describe('calendarList sync', () => {
  const client = useSignedIn({ scope: 'calendar.calendarlist' });

  it('a sync token reports nothing until an entry changes, then the changed entries, deleted and hidden included', async () => {
    const full = await client.api(LIST);
    let token = full.json.nextSyncToken as string;
    const quiet = await client.api(`${LIST}?syncToken=${encodeURIComponent(token)}`);
    assert.equal(quiet.status, 200);
    assert.deepEqual(quiet.json.items, []);
    assert.ok(quiet.json.nextSyncToken);
    token = quiet.json.nextSyncToken;

    assert.equal((await client.api(`${LIST}/primary`, { method: 'PATCH', body: { summaryOverride: 'Me' } })).status, 200);
    const changed = await client.api(`${LIST}?syncToken=${encodeURIComponent(token)}`);
    assert.deepEqual(changed.json.items.map((i: { id: string; summaryOverride: string }) => [i.id, i.summaryOverride]), [[AIKO, 'Me']]);
    token = changed.json.nextSyncToken;

    assert.equal((await client.api(`${LIST}/${TEAM}`, { method: 'PATCH', body: { hidden: true } })).status, 200);
    assert.equal((await client.api(`${LIST}/${HIDDEN}`, { method: 'DELETE' })).status, 204);
    const later = await client.api(`${LIST}?syncToken=${encodeURIComponent(token)}&showDeleted=true&showHidden=true`);
    const byId = new Map(later.json.items.map((i: { id: string }) => [i.id, i]));
    assert.deepEqual([...byId.keys()].sort(), [HIDDEN, TEAM]);
    assert.equal((byId.get(TEAM) as { hidden: boolean }).hidden, true);
    assert.equal((byId.get(HIDDEN) as { deleted: boolean }).deleted, true);
  });

  it('syncToken refuses minAccessRole and explicit false for showDeleted / showHidden', async () => {
    const token = encodeURIComponent((await client.api(LIST)).json.nextSyncToken);
    assertInvalid(await client.api(`${LIST}?syncToken=${token}&minAccessRole=owner`), 'minAccessRole cannot be used together with syncToken', 'minAccessRole');
    assertInvalid(await client.api(`${LIST}?syncToken=${token}&showDeleted=false`), 'showDeleted cannot be false together with syncToken', 'showDeleted');
    assertInvalid(await client.api(`${LIST}?syncToken=${token}&showHidden=false`), 'showHidden cannot be false together with syncToken', 'showHidden');
  });

  it('a garbage, foreign or pre-reset sync token is 410 fullSyncRequired', async () => {
    const expected = {
      error: {
        code: 410,
        message: 'Sync token is no longer valid, a full sync is required.',
        errors: [
          { domain: 'calendar', reason: 'fullSyncRequired', message: 'Sync token is no longer valid, a full sync is required.', locationType: 'parameter', location: 'syncToken' },
        ],
        status: 'FAILED_PRECONDITION',
      },
    };
    const garbage = await client.api(`${LIST}?syncToken=garbage`);
    assert.equal(garbage.status, 410);
    assert.deepEqual(garbage.json, expected);

    const benToken = await tokenFor(client.url, 'calendar.readonly', 'user-ben');
    const bens = await api(client.url, benToken, LIST);
    const foreign = await client.api(`${LIST}?syncToken=${encodeURIComponent(bens.json.nextSyncToken)}`);
    assert.equal(foreign.status, 410);

    const mine = (await client.api(LIST)).json.nextSyncToken as string;
    await call(`${client.url}/__svc/fixtures`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(CALENDAR_FIXTURE),
    });
    // Loading a fixture removes every connection, so a fresh token is needed.
    const fresh = await tokenFor(client.url, 'calendar');
    const stale = await api(client.url, fresh, `${LIST}?syncToken=${encodeURIComponent(mine)}`);
    assert.equal(stale.status, 410);
    assert.deepEqual(stale.json, expected);
  });
});

describe('calendarList conditional requests', () => {
  const client = useSignedIn({ scope: 'calendar.calendarlist' });

  it('If-None-Match with the current etag is 304 with no body; a stale one is 200', async () => {
    const first = await client.api(`${LIST}/${TEAM}`);
    const etag = first.json.etag as string;
    const same = await client.api(`${LIST}/${TEAM}`, { headers: { 'if-none-match': etag } });
    assert.equal(same.status, 304);
    assert.equal(same.text, '');
    assert.equal(same.headers.get('etag'), etag);
    assert.equal((await client.api(`${LIST}/${TEAM}`, { headers: { 'if-none-match': `W/${etag}` } })).status, 304);
    assert.equal((await client.api(`${LIST}/${TEAM}`, { headers: { 'if-none-match': '"0000000000000001"' } })).status, 200);

    await client.api(`${LIST}/${TEAM}`, { method: 'PATCH', body: { selected: false } });
    const after = await client.api(`${LIST}/${TEAM}`, { headers: { 'if-none-match': etag } });
    assert.equal(after.status, 200);
    assert.notEqual(after.json.etag, etag);
  });

  it('If-None-Match on the list', async () => {
    const list = await client.api(LIST);
    assert.equal((await client.api(LIST, { headers: { 'if-none-match': list.json.etag } })).status, 304);
  });

  it('If-Match: a stale etag is 412 conditionNotMet and changes nothing; the current one or * succeeds', async () => {
    const current = await client.api(`${LIST}/${TEAM}`);
    const stale = await client.api(`${LIST}/${TEAM}`, { method: 'PATCH', headers: { 'if-match': '"0000000000000001"' }, body: { summaryOverride: 'x' } });
    assert.equal(stale.status, 412);
    assert.deepEqual(stale.json, {
      error: {
        code: 412,
        message: 'Precondition Failed',
        errors: [{ domain: 'global', reason: 'conditionNotMet', message: 'Precondition Failed', locationType: 'header', location: 'If-Match' }],
        status: 'FAILED_PRECONDITION',
      },
    });
    assert.equal((await client.api(`${LIST}/${TEAM}`)).json.etag, current.json.etag);
    for (const method of ['PUT', 'DELETE']) {
      const res = await client.api(`${LIST}/${TEAM}`, { method, headers: { 'if-match': '"0000000000000001"' }, body: method === 'PUT' ? {} : undefined });
      assert.equal(res.status, 412, method);
    }

    const ok = await client.api(`${LIST}/${TEAM}`, { method: 'PATCH', headers: { 'if-match': current.json.etag }, body: { summaryOverride: 'y' } });
    assert.equal(ok.status, 200);
    assert.notEqual(ok.json.etag, current.json.etag);
    assert.equal(ok.headers.get('etag'), ok.json.etag);
    const star = await client.api(`${LIST}/${TEAM}`, { method: 'PATCH', headers: { 'if-match': '*' }, body: { summaryOverride: 'z' } });
    assert.equal(star.status, 200);
  });
});

describe('calendarList.patch and update', () => {
  const client = useSignedIn({ scope: 'calendar.calendarlist' });
  const TEAM_PATH = `${LIST}/${TEAM}`;

  it('patch changes only the fields in the body; null clears one', async () => {
    const a = await client.api(TEAM_PATH, {
      method: 'PATCH',
      body: { summaryOverride: 'Mine', selected: false, defaultReminders: [{ method: 'email', minutes: 60 }] },
    });
    assert.equal(a.status, 200);
    assert.equal(a.json.summaryOverride, 'Mine');
    assert.equal(a.json.selected, false);
    const b = await client.api(TEAM_PATH, { method: 'PATCH', body: { notificationSettings: { notifications: [{ method: 'email', type: 'agenda' }] } } });
    assert.equal(b.json.summaryOverride, 'Mine');
    assert.deepEqual(b.json.defaultReminders, [{ method: 'email', minutes: 60 }]);
    assert.deepEqual(b.json.notificationSettings, { notifications: [{ type: 'agenda', method: 'email' }] });
    const c = await client.api(TEAM_PATH, { method: 'PATCH', body: { summaryOverride: null } });
    assert.equal(c.json.summaryOverride, undefined);
    assert.equal(c.json.selected, false);
  });

  it('every write gets a new etag; reads keep it', async () => {
    const one = await client.api(TEAM_PATH, { method: 'PATCH', body: {} });
    const two = await client.api(TEAM_PATH, { method: 'PATCH', body: {} });
    assert.notEqual(one.json.etag, two.json.etag);
    assert.equal((await client.api(TEAM_PATH)).json.etag, two.json.etag);
    assert.equal((await client.api(TEAM_PATH)).json.etag, two.json.etag);
  });

  it('update replaces the writable fields: absent ones go back to their defaults', async () => {
    await client.api(TEAM_PATH, { method: 'PATCH', body: { summaryOverride: 'Mine', defaultReminders: [{ method: 'popup', minutes: 5 }], colorId: '3' } });
    const res = await client.api(TEAM_PATH, { method: 'PUT', body: { selected: false } });
    assert.equal(res.status, 200);
    assert.equal(res.json.summaryOverride, undefined);
    assert.deepEqual(res.json.defaultReminders, []);
    assert.equal(res.json.selected, false);
    assert.equal(res.json.colorId, defaultColorId(TEAM));
    assert.equal(res.json.notificationSettings, undefined);
  });

  it('read-only fields in the body are ignored', async () => {
    const before = await client.api(TEAM_PATH);
    const res = await client.api(TEAM_PATH, {
      method: 'PATCH',
      body: { id: 'other@example.com', kind: 'x', etag: '"1"', summary: 'Renamed', description: 'd', location: 'l', timeZone: 'UTC', accessRole: 'reader', primary: true, deleted: true, dataOwner: 'x', conferenceProperties: {} },
    });
    assert.equal(res.status, 200);
    const { etag: _a, ...was } = before.json;
    const { etag: _b, ...now } = res.json;
    assert.deepEqual(now, was);
  });

  it('a read-modify-write update with a new colorId (the documented pattern) works without colorRgbFormat', async () => {
    const entry = (await client.api(TEAM_PATH)).json;
    const res = await client.api(TEAM_PATH, { method: 'PUT', body: { ...entry, colorId: '11' } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.colorId, '11');
    assert.equal(res.json.backgroundColor, '#fbe983');
    assert.equal(res.json.foregroundColor, '#000000');
  });

  it('colorId must be a palette key', async () => {
    for (const bad of ['0', '25', 7, '']) {
      assertInvalid(await client.api(TEAM_PATH, { method: 'PATCH', body: { colorId: bad } }), 'colorId must be a calendar colour id from 1 to 24');
    }
  });

  it('RGB colours change only with colorRgbFormat=true, which sets colorId to the nearest palette entry', async () => {
    const refused = await client.api(TEAM_PATH, { method: 'PATCH', body: { backgroundColor: '#0088aa' } });
    assertInvalid(refused, 'backgroundColor can only be changed with colorRgbFormat=true', 'colorRgbFormat');
    const fg = await client.api(TEAM_PATH, { method: 'PATCH', body: { foregroundColor: '#ffffff' } });
    assertInvalid(fg, 'foregroundColor can only be changed with colorRgbFormat=true', 'colorRgbFormat');

    const res = await client.api(`${TEAM_PATH}?colorRgbFormat=true`, { method: 'PATCH', body: { backgroundColor: '#0088AA', foregroundColor: '#FFFFFF', colorId: '1' } });
    assert.equal(res.status, 200);
    assert.equal(res.json.backgroundColor, '#0088aa');
    assert.equal(res.json.foregroundColor, '#ffffff');
    assert.equal(res.json.colorId, nearestColorId('#0088aa'));

    // Restating the current RGB values without the flag is accepted and keeps them.
    const same = await client.api(TEAM_PATH, { method: 'PATCH', body: { backgroundColor: '#0088aa', foregroundColor: '#ffffff', selected: true } });
    assert.equal(same.status, 200);
    assert.equal(same.json.backgroundColor, '#0088aa');

    // A new colorId replaces custom RGB with the palette colour.
    const palette = await client.api(TEAM_PATH, { method: 'PATCH', body: { colorId: '2' } });
    assert.equal(palette.json.backgroundColor, '#d06b64');
    assert.equal(palette.json.foregroundColor, '#000000');
  });

  it('RGB colours must look like #0088aa', async () => {
    for (const bad of ['blue', '#08a', '#0088aag', 12]) {
      const res = await client.api(`${TEAM_PATH}?colorRgbFormat=true`, { method: 'PATCH', body: { backgroundColor: bad } });
      assertInvalid(res, 'backgroundColor must be a colour like #0088aa');
    }
    assertInvalid(await client.api(`${TEAM_PATH}?colorRgbFormat=yes`, { method: 'PATCH', body: {} }), 'colorRgbFormat must be true or false', 'colorRgbFormat');
  });

  it('validates the other writable fields, naming them', async () => {
    const cases: Array<[unknown, string]> = [
      [{ summaryOverride: 3 }, 'summaryOverride must be a string'],
      [{ selected: 'yes' }, 'selected must be true or false'],
      [{ hidden: 'no' }, 'hidden must be true or false'],
      [{ defaultReminders: {} }, 'defaultReminders must be an array'],
      [{ defaultReminders: ['x'] }, 'defaultReminders[0] must be an object'],
      [{ defaultReminders: [{ method: 'sms', minutes: 10 }] }, 'defaultReminders[0].method must be "email" or "popup"'],
      [{ defaultReminders: [{ method: 'popup', minutes: 10 }, { method: 'popup', minutes: 40321 }] }, 'defaultReminders[1].minutes must be an integer from 0 to 40320'],
      [{ defaultReminders: [{ method: 'popup', minutes: 1.5 }] }, 'defaultReminders[0].minutes must be an integer from 0 to 40320'],
      [{ notificationSettings: [] }, 'notificationSettings must be an object'],
      [{ notificationSettings: { notifications: {} } }, 'notificationSettings.notifications must be an array'],
      [{ notificationSettings: { notifications: [{ method: 'sms', type: 'agenda' }] } }, 'notificationSettings.notifications[0].method must be "email"'],
      [
        { notificationSettings: { notifications: [{ method: 'email', type: 'daily' }] } },
        'notificationSettings.notifications[0].type must be one of eventCreation, eventChange, eventCancellation, eventResponse, agenda',
      ],
      [[], 'The request body must be a JSON object.'],
      ['text', 'The request body must be a JSON object.'],
    ];
    const before = (await client.api(TEAM_PATH)).json.etag;
    for (const [body, message] of cases) assertInvalid(await client.api(TEAM_PATH, { method: 'PATCH', body }), message);
    assert.equal((await client.api(TEAM_PATH)).json.etag, before);
  });

  it('an empty body is 400 for patch and update', async () => {
    for (const method of ['PATCH', 'PUT']) {
      const res = await client.api(TEAM_PATH, { method });
      assert.equal(res.status, 400, method);
    }
  });

  it('hidden: a secondary can be hidden and shown again; the primary cannot be hidden', async () => {
    assert.equal((await client.api(TEAM_PATH, { method: 'PATCH', body: { hidden: true } })).json.hidden, true);
    assert.deepEqual((await client.api(LIST)).json.items.map((i: { id: string }) => i.id), [AIKO]);
    const shown = await client.api(TEAM_PATH, { method: 'PATCH', body: { hidden: false } });
    assert.equal(shown.json.hidden, undefined);

    const primary = await client.api(`${LIST}/primary`, { method: 'PATCH', body: { hidden: true } });
    assert.equal(primary.status, 403);
    assert.equal(reason(primary).reason, 'cannotChangeOwnPrimarySubscription');
    assert.equal((await client.api(`${LIST}/primary`)).json.hidden, undefined);
  });

  it('another user\'s calendar is 404 for patch and update', async () => {
    for (const method of ['PATCH', 'PUT']) {
      const res = await client.api(`${LIST}/${encodeURIComponent(BEN_PRIVATE)}`, { method, body: { selected: false } });
      assert.equal(res.status, 404);
      assert.deepEqual(res.json, NOT_FOUND);
    }
  });
});

describe('calendarList.delete and insert', () => {
  const client = useSignedIn({ scope: 'calendar.calendarlist' });

  it('the primary calendar cannot leave the list', async () => {
    const res = await client.api(`${LIST}/primary`, { method: 'DELETE' });
    assert.equal(res.status, 403);
    assert.equal(reason(res).reason, 'cannotChangeOwnPrimarySubscription');
    assert.equal(res.json.error.status, 'PERMISSION_DENIED');
    assert.equal((await client.api(`${LIST}/primary`)).status, 200);
  });

  it('a secondary leaves the list and shows as deleted only with showDeleted', async () => {
    const res = await client.api(`${LIST}/${TEAM}`, { method: 'DELETE' });
    assert.equal(res.status, 204);
    assert.equal(res.text, '');
    assert.equal((await client.api(`${LIST}/${TEAM}`)).status, 404);
    assert.equal((await client.api(`${LIST}/${TEAM}`, { method: 'PATCH', body: {} })).status, 404);
    assert.equal((await client.api(`${LIST}/${TEAM}`, { method: 'DELETE' })).status, 404);
    assert.deepEqual((await client.api(LIST)).json.items.map((i: { id: string }) => i.id), [AIKO]);
    const withDeleted = await client.api(`${LIST}?showDeleted=true`);
    const team = withDeleted.json.items.find((i: { id: string }) => i.id === TEAM);
    assert.equal(team.deleted, true);
    assert.equal(team.summary, 'Team');
  });

  it('insert puts a removed calendar back; a second insert is 409 duplicate', async () => {
    const res = await client.api(`${LIST}?colorRgbFormat=true`, { method: 'POST', body: { id: TEAM, summaryOverride: 'Back', backgroundColor: '#ff0000' } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.id, TEAM);
    assert.equal(res.json.summaryOverride, 'Back');
    assert.equal(res.json.backgroundColor, '#ff0000');
    assert.equal(res.json.colorId, nearestColorId('#ff0000'));
    assert.equal(res.json.deleted, undefined);
    assert.equal((await client.api(`${LIST}/${TEAM}`)).json.etag, res.json.etag);

    const again = await client.api(LIST, { method: 'POST', body: { id: TEAM } });
    assert.equal(again.status, 409);
    assert.deepEqual(reason(again), { domain: 'global', reason: 'duplicate', message: 'The requested identifier already exists.' });
    assert.equal((await client.api(LIST, { method: 'POST', body: { id: AIKO } })).status, 409);
  });

  it('insert of an unknown or foreign calendar is 404; a missing id is 400 required', async () => {
    for (const id of [BEN_PRIVATE, 'nobody@example.com', 'primary']) {
      const res = await client.api(LIST, { method: 'POST', body: { id } });
      assert.equal(res.status, 404, id);
      assert.deepEqual(res.json, NOT_FOUND);
    }
    const missing = await client.api(LIST, { method: 'POST', body: { summaryOverride: 'x' } });
    assert.equal(missing.status, 400);
    assert.deepEqual(reason(missing), { domain: 'global', reason: 'required', message: 'id is required: the calendar to add to the list' });
    assertInvalid(await client.api(LIST, { method: 'POST', body: { id: 5 } }), 'id must be a string');
  });

  it('insert validates the body like update, and refuses RGB without colorRgbFormat', async () => {
    await client.api(`${LIST}/${HIDDEN}`, { method: 'DELETE' });
    assertInvalid(await client.api(LIST, { method: 'POST', body: { id: HIDDEN, selected: 1 } }), 'selected must be true or false');
    assertInvalid(await client.api(LIST, { method: 'POST', body: { id: HIDDEN, backgroundColor: '#123456' } }), 'backgroundColor can only be changed with colorRgbFormat=true', 'colorRgbFormat');
    assert.equal((await client.api(`${LIST}/${HIDDEN}`)).status, 404);
    const ok = await client.api(LIST, { method: 'POST', body: { id: HIDDEN, hidden: true } });
    assert.equal(ok.status, 200);
    assert.equal(ok.json.hidden, true);
  });
});

describe('colour palette', () => {
  it('nearest colour of a palette colour is itself; defaults are stable palette keys', () => {
    for (const [id, background] of CALENDAR_PALETTE) assert.equal(nearestColorId(background), id);
    assert.equal(nearestColorId('#ff0000'), '3');
    assert.equal(nearestColorId('#000000'), '8');
    assert.equal(CALENDAR_PALETTE.size, 24);
    for (const id of [AIKO, TEAM, 'x']) {
      assert.ok(CALENDAR_PALETTE.has(defaultColorId(id)));
      assert.equal(defaultColorId(id), defaultColorId(id));
    }
  });
});

describe('calendarList on the SQLite store', () => {
  it('entry writes, removals and sync tokens survive a restart', { skip: SQLITE_SKIP }, async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'calendar-list-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const db = join(dir, 'calendar.db');

    const first = await start({ port: 0, db, fixture: CALENDAR_FIXTURE });
    const token = await tokenFor(first.url, 'calendar.calendarlist', 'user-aiko');
    const patched = await api(first.url, token, `${LIST}/${TEAM}?colorRgbFormat=true`, {
      method: 'PATCH',
      body: { summaryOverride: 'Kept', backgroundColor: '#123456', defaultReminders: [{ method: 'email', minutes: 15 }] },
    });
    assert.equal(patched.status, 200);
    assert.equal((await api(first.url, token, `${LIST}/${HIDDEN}`, { method: 'DELETE' })).status, 204);
    const syncToken = (await api(first.url, token, LIST)).json.nextSyncToken as string;
    await first.close();

    const second = await start({ port: 0, db, fixture: CALENDAR_FIXTURE });
    t.after(() => second.close());
    // Access tokens are persisted with their expiry (spec, "Access token"), so the same one still works.
    const entry = await api(second.url, token, `${LIST}/${TEAM}`);
    assert.deepEqual(entry.json, patched.json);
    const all = await api(second.url, token, `${LIST}?showDeleted=true&showHidden=true`);
    assert.equal(all.json.items.find((i: { id: string }) => i.id === HIDDEN).deleted, true);
    const sync = await api(second.url, token, `${LIST}?syncToken=${encodeURIComponent(syncToken)}`);
    assert.equal(sync.status, 200);
    assert.deepEqual(sync.json.items, []);
  });
});
