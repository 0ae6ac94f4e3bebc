// Server-chosen event ids (src/calendar/events/write.ts generateEventId, domain/time-ordered.ts): 26 base32hex
// characters like Google's, the creation time first so that ids sort as they were made, then
// 80 random bits.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generateEventId } from '../../src/event-model/event-insert.ts';
import { timePrefix, TIME_PREFIX_LENGTH } from '../../src/domain/time-ordered.ts';

const NOW = Date.UTC(2026, 10, 23, 12, 0);

describe('generated event ids', () => {
  it('are 26 base32hex characters beginning with the time they were made', () => {
    const id = generateEventId(NOW);
    assert.match(id, /^[a-v0-9]{26}$/);
    assert.equal(id.slice(0, TIME_PREFIX_LENGTH), timePrefix(NOW));
    assert.equal(parseInt(id.slice(0, TIME_PREFIX_LENGTH), 32), NOW);
  });

  it('sort by the time they were made, whatever their random part', () => {
    const times = [0, 1, 31, 32, NOW - 1, NOW, NOW + 1, Date.UTC(2100, 0, 1)];
    const ids = times.map((t) => generateEventId(t));
    assert.deepEqual([...ids].sort(), ids);
  });

  it('differ within one millisecond', () => {
    const ids = new Set(Array.from({ length: 1_000 }, () => generateEventId(NOW)));
    assert.equal(ids.size, 1_000);
  });

  it('a clock before 1970 or past the prefix range still gives a valid id', () => {
    assert.equal(timePrefix(-5), '0000000000');
    assert.equal(timePrefix(2 ** 60), 'vvvvvvvvvv');
    assert.match(generateEventId(-5), /^[a-v0-9]{26}$/);
    assert.match(generateEventId(Number.MAX_VALUE), /^[a-v0-9]{26}$/);
  });
});
