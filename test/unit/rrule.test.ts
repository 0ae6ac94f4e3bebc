import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RecurrenceError, parseRecurrence } from '../../src/domain/recurrence/rrule.ts';
import { days, firstN, parseRule, range, timedSeries } from '../_helpers/series.ts';

const NY = 'America/New_York';
const timed = { allDay: false };
const allDay = { allDay: true };

function rejects(lines: string[], part: string, pattern: RegExp, options = timed): void {
  assert.throws(() => parseRecurrence(lines, options), (e: unknown) => {
    assert.ok(e instanceof RecurrenceError, String(e));
    assert.equal(e.part, part);
    assert.match(e.message, /^Invalid recurrence rule: /);
    assert.match(e.message, pattern);
    return true;
  });
}

test('parses a rule with every part', () => {
  const r = parseRule('FREQ=YEARLY;INTERVAL=2;COUNT=3;BYSECOND=0;BYMINUTE=30;BYHOUR=9,8;BYDAY=2MO,-1FR,SU;BYMONTHDAY=-1,15;BYMONTH=6,1;BYSETPOS=1;WKST=SU');
  assert.equal(r.freq, 'YEARLY');
  assert.equal(r.interval, 2);
  assert.equal(r.count, 3);
  assert.deepEqual(r.byHour, [8, 9]);
  assert.deepEqual(r.byDay, [{ weekday: 0, ordinal: 2 }, { weekday: 4, ordinal: -1 }, { weekday: 6, ordinal: 0 }]);
  assert.deepEqual(r.byMonthDay, [-1, 15]);
  assert.deepEqual(r.byMonth, [1, 6]);
  assert.equal(r.wkst, 6);
  assert.equal(parseRule('freq=weekly;byday=mo').freq, 'WEEKLY');
});

test('parses EXDATE and RDATE forms', () => {
  const set = parseRecurrence(
    [
      'RRULE:FREQ=WEEKLY;BYDAY=MO',
      'EXDATE;TZID=America/New_York:20261109T090000,20261116T090000',
      'EXDATE:20261123T140000Z',
      'RDATE;VALUE=DATE:20261225',
      'RDATE;TZID="Europe/London":20261226T100000',
      'EXRULE:FREQ=MONTHLY;BYDAY=1MO',
    ],
    timed,
  );
  assert.equal(set.rrules.length, 1);
  assert.equal(set.exrules.length, 1);
  assert.equal(set.exdates.length, 3);
  assert.deepEqual(set.exdates.map((e) => e.tzid), [NY, NY, undefined]);
  assert.deepEqual(set.rdates.map((r) => [r.value.kind, r.tzid]), [['date', undefined], ['dateTime', 'Europe/London']]);
  const ad = parseRecurrence(['RRULE:FREQ=DAILY;UNTIL=20150628;INTERVAL=3', 'EXDATE;VALUE=DATE:20150610', 'RDATE;VALUE=DATE:20150609,20150611'], allDay);
  assert.equal(ad.rdates.length, 2);
});

test('rejections say which part and why', () => {
  rejects(['RRULE:FREQ=WEEKLY;BYDAY=9XX'], 'BYDAY', /BYDAY value "9XX" is not a weekday/);
  rejects(['RRULE:FREQ=MONTHLY;BYDAY=0MO'], 'BYDAY', /ordinal 0/);
  rejects(['RRULE:FREQ=MONTHLY;BYDAY=54MO'], 'BYDAY', /ordinal 54/);
  rejects(['RRULE:FREQ=WEEKLY;BYDAY=2MO'], 'BYDAY', /only allowed with FREQ=MONTHLY or YEARLY/);
  rejects(['RRULE:FREQ=YEARLY;BYWEEKNO=2;BYDAY=1MO'], 'BYDAY', /BYWEEKNO/);
  rejects(['RRULE:BYDAY=MO'], 'FREQ', /FREQ is required/);
  rejects(['RRULE:FREQ=FORTNIGHTLY'], 'FREQ', /FREQ value "FORTNIGHTLY"/);
  rejects(['RRULE:FREQ=DAILY;COUNT=0'], 'COUNT', /COUNT value "0" is out of range/);
  rejects(['RRULE:FREQ=DAILY;COUNT=x'], 'COUNT', /not an integer/);
  rejects(['RRULE:FREQ=DAILY;INTERVAL=-1'], 'INTERVAL', /must not be negative/);
  rejects(['RRULE:FREQ=DAILY;COUNT=2;UNTIL=20260101'], 'UNTIL', /UNTIL and COUNT/);
  rejects(['RRULE:FREQ=DAILY;UNTIL=20261301'], 'UNTIL', /month 13/);
  rejects(['RRULE:FREQ=DAILY;FREQ=DAILY'], 'FREQ', /more than once/);
  rejects(['RRULE:FREQ=DAILY;BYMONTHDAY=0'], 'BYMONTHDAY', /out of range/);
  rejects(['RRULE:FREQ=DAILY;BYMONTHDAY=32'], 'BYMONTHDAY', /out of range/);
  rejects(['RRULE:FREQ=WEEKLY;BYMONTHDAY=3'], 'BYMONTHDAY', /not allowed with FREQ=WEEKLY/);
  rejects(['RRULE:FREQ=MONTHLY;BYYEARDAY=3'], 'BYYEARDAY', /not allowed with FREQ=MONTHLY/);
  rejects(['RRULE:FREQ=MONTHLY;BYWEEKNO=3'], 'BYWEEKNO', /only allowed with FREQ=YEARLY/);
  rejects(['RRULE:FREQ=DAILY;BYMONTH=13'], 'BYMONTH', /out of range/);
  rejects(['RRULE:FREQ=DAILY;BYHOUR=24'], 'BYHOUR', /out of range/);
  rejects(['RRULE:FREQ=DAILY;BYSECOND=60'], 'BYSECOND', /out of range/);
  rejects(['RRULE:FREQ=DAILY;BYSETPOS=1'], 'BYSETPOS', /together with another BYxxx/);
  rejects(['RRULE:FREQ=DAILY;WKST=XX'], 'WKST', /WKST value "XX" is not a weekday/);
  rejects(['RRULE:FREQ=DAILY;FOO=1'], 'FOO', /unknown rule part "FOO"/);
  rejects(['RRULE:FREQ'], 'RRULE', /not a NAME=VALUE/);
  rejects(['RRULE;X=1:FREQ=DAILY'], 'RRULE', /parameter X is not supported/);
  rejects(['DTSTART:20260101T000000Z'], 'DTSTART', /not allowed/);
  rejects(['VEVENT:x'], 'VEVENT', /is not RRULE, EXRULE, RDATE or EXDATE/);
  rejects(['no colon'], 'recurrence', /NAME:VALUE/);
  rejects(['EXDATE;TZID=Mars/Base:20260101T000000'], 'TZID', /not a known IANA time zone/);
  rejects(['EXDATE;TZID=America/New_York:20260101T000000Z'], 'TZID', /in UTC and cannot also carry TZID/);
  rejects(['EXDATE;VALUE=DATE:20260101T000000'], 'EXDATE', /is not a DATE/);
  rejects(['RDATE;VALUE=PERIOD:19960403T020000Z/19960403T040000Z'], 'RDATE', /PERIOD values are not supported/);
  rejects(['RDATE:20260230'], 'RDATE', /day 30 is out of range 1-28/);
  rejects(['EXDATE:20260101T090000'], 'EXDATE', /must be a DATE .* for an all-day event/, allDay);
  rejects(['RRULE:FREQ=HOURLY'], 'FREQ', /not allowed for an all-day event/, allDay);
  rejects(['RRULE:FREQ=DAILY;BYHOUR=9'], 'BYHOUR', /not allowed for an all-day event/, allDay);
});

// RFC 5545 §3.8.5.3 examples. DTSTART;TZID=America/New_York as the RFC gives it; expected
// local dates at 9:00 AM unless noted. Infinite rules compare their first occurrences.
interface Vector {
  readonly name: string;
  readonly start: string;
  readonly lines: readonly string[];
  readonly expected: readonly string[];
}

const vectors: Vector[] = [
  { name: 'daily for 10 occurrences', start: '19970902T0900', lines: ['RRULE:FREQ=DAILY;COUNT=10'], expected: range(1997, 9, 2, 11) },
  {
    name: 'daily until December 24, 1997',
    start: '19970902T0900',
    lines: ['RRULE:FREQ=DAILY;UNTIL=19971224T000000Z'],
    expected: [...range(1997, 9, 2, 30), ...range(1997, 10, 1, 31), ...range(1997, 11, 1, 30), ...range(1997, 12, 1, 23)],
  },
  {
    name: 'every other day, forever',
    start: '19970902T0900',
    lines: ['RRULE:FREQ=DAILY;INTERVAL=2'],
    expected: days('1997-9: 2,4,6,8,10,12,14,16,18,20,22,24,26,28,30; 1997-10: 2,4,6,8,10,12,14,16,18,20,22,24,26,28,30; 1997-11: 1,3,5,7,9,11,13,15,17,19,21,23,25,27,29; 1997-12: 1,3,5'),
  },
  { name: 'every 10 days, 5 occurrences', start: '19970902T0900', lines: ['RRULE:FREQ=DAILY;INTERVAL=10;COUNT=5'], expected: days('1997-9: 2,12,22; 1997-10: 2,12') },
  {
    name: 'every day in January for 3 years (yearly form)',
    start: '19980101T0900',
    lines: ['RRULE:FREQ=YEARLY;UNTIL=20000131T140000Z;BYMONTH=1;BYDAY=SU,MO,TU,WE,TH,FR,SA'],
    expected: [...range(1998, 1, 1, 31), ...range(1999, 1, 1, 31), ...range(2000, 1, 1, 31)],
  },
  {
    name: 'every day in January for 3 years (daily form)',
    start: '19980101T0900',
    lines: ['RRULE:FREQ=DAILY;UNTIL=20000131T140000Z;BYMONTH=1'],
    expected: [...range(1998, 1, 1, 31), ...range(1999, 1, 1, 31), ...range(2000, 1, 1, 31)],
  },
  { name: 'weekly for 10 occurrences', start: '19970902T0900', lines: ['RRULE:FREQ=WEEKLY;COUNT=10'], expected: days('1997-9: 2,9,16,23,30; 1997-10: 7,14,21,28; 1997-11: 4') },
  {
    name: 'weekly until December 24, 1997',
    start: '19970902T0900',
    lines: ['RRULE:FREQ=WEEKLY;UNTIL=19971224T000000Z'],
    expected: days('1997-9: 2,9,16,23,30; 1997-10: 7,14,21,28; 1997-11: 4,11,18,25; 1997-12: 2,9,16,23'),
  },
  {
    name: 'every other week, forever',
    start: '19970902T0900',
    lines: ['RRULE:FREQ=WEEKLY;INTERVAL=2;WKST=SU'],
    expected: days('1997-9: 2,16,30; 1997-10: 14,28; 1997-11: 11,25; 1997-12: 9,23; 1998-1: 6,20; 1998-2: 3,17'),
  },
  {
    name: 'weekly on Tuesday and Thursday for five weeks (UNTIL form)',
    start: '19970902T0900',
    lines: ['RRULE:FREQ=WEEKLY;UNTIL=19971007T000000Z;WKST=SU;BYDAY=TU,TH'],
    expected: days('1997-9: 2,4,9,11,16,18,23,25,30; 1997-10: 2'),
  },
  {
    name: 'weekly on Tuesday and Thursday for five weeks (COUNT form)',
    start: '19970902T0900',
    lines: ['RRULE:FREQ=WEEKLY;COUNT=10;WKST=SU;BYDAY=TU,TH'],
    expected: days('1997-9: 2,4,9,11,16,18,23,25,30; 1997-10: 2'),
  },
  {
    name: 'every other week on Monday, Wednesday and Friday until December 24, 1997',
    start: '19970901T0900',
    lines: ['RRULE:FREQ=WEEKLY;INTERVAL=2;UNTIL=19971224T000000Z;WKST=SU;BYDAY=MO,WE,FR'],
    expected: days('1997-9: 1,3,5,15,17,19,29; 1997-10: 1,3,13,15,17,27,29,31; 1997-11: 10,12,14,24,26,28; 1997-12: 8,10,12,22'),
  },
  {
    name: 'every other week on Tuesday and Thursday, for 8 occurrences',
    start: '19970902T0900',
    lines: ['RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=8;WKST=SU;BYDAY=TU,TH'],
    expected: days('1997-9: 2,4,16,18,30; 1997-10: 2,14,16'),
  },
  {
    name: 'monthly on the first Friday for 10 occurrences',
    start: '19970905T0900',
    lines: ['RRULE:FREQ=MONTHLY;COUNT=10;BYDAY=1FR'],
    expected: days('1997-9: 5; 1997-10: 3; 1997-11: 7; 1997-12: 5; 1998-1: 2; 1998-2: 6; 1998-3: 6; 1998-4: 3; 1998-5: 1; 1998-6: 5'),
  },
  {
    name: 'monthly on the first Friday until December 24, 1997',
    start: '19970905T0900',
    lines: ['RRULE:FREQ=MONTHLY;UNTIL=19971224T000000Z;BYDAY=1FR'],
    expected: days('1997-9: 5; 1997-10: 3; 1997-11: 7; 1997-12: 5'),
  },
  {
    name: 'every other month on the first and last Sunday, for 10 occurrences',
    start: '19970907T0900',
    lines: ['RRULE:FREQ=MONTHLY;INTERVAL=2;COUNT=10;BYDAY=1SU,-1SU'],
    expected: days('1997-9: 7,28; 1997-11: 2,30; 1998-1: 4,25; 1998-3: 1,29; 1998-5: 3,31'),
  },
  {
    name: 'monthly on the second-to-last Monday for 6 months',
    start: '19970922T0900',
    lines: ['RRULE:FREQ=MONTHLY;COUNT=6;BYDAY=-2MO'],
    expected: days('1997-9: 22; 1997-10: 20; 1997-11: 17; 1997-12: 22; 1998-1: 19; 1998-2: 16'),
  },
  {
    name: 'monthly on the third-to-the-last day, forever',
    start: '19970928T0900',
    lines: ['RRULE:FREQ=MONTHLY;BYMONTHDAY=-3'],
    expected: days('1997-9: 28; 1997-10: 29; 1997-11: 28; 1997-12: 29; 1998-1: 29; 1998-2: 26'),
  },
  {
    name: 'monthly on the 2nd and 15th for 10 occurrences',
    start: '19970902T0900',
    lines: ['RRULE:FREQ=MONTHLY;COUNT=10;BYMONTHDAY=2,15'],
    expected: days('1997-9: 2,15; 1997-10: 2,15; 1997-11: 2,15; 1997-12: 2,15; 1998-1: 2,15'),
  },
  {
    name: 'monthly on the first and last day for 10 occurrences',
    start: '19970930T0900',
    lines: ['RRULE:FREQ=MONTHLY;COUNT=10;BYMONTHDAY=1,-1'],
    expected: days('1997-9: 30; 1997-10: 1,31; 1997-11: 1,30; 1997-12: 1,31; 1998-1: 1,31; 1998-2: 1'),
  },
  {
    name: 'every 18 months on the 10th to 15th, 10 occurrences',
    start: '19970910T0900',
    lines: ['RRULE:FREQ=MONTHLY;INTERVAL=18;COUNT=10;BYMONTHDAY=10,11,12,13,14,15'],
    expected: days('1997-9: 10,11,12,13,14,15; 1999-3: 10,11,12,13'),
  },
  {
    name: 'every Tuesday, every other month',
    start: '19970902T0900',
    lines: ['RRULE:FREQ=MONTHLY;INTERVAL=2;BYDAY=TU'],
    expected: days('1997-9: 2,9,16,23,30; 1997-11: 4,11,18,25; 1998-1: 6,13,20,27; 1998-3: 3,10,17,24,31'),
  },
  {
    name: 'yearly in June and July for 10 occurrences',
    start: '19970610T0900',
    lines: ['RRULE:FREQ=YEARLY;COUNT=10;BYMONTH=6,7'],
    expected: days('1997-6: 10; 1997-7: 10; 1998-6: 10; 1998-7: 10; 1999-6: 10; 1999-7: 10; 2000-6: 10; 2000-7: 10; 2001-6: 10; 2001-7: 10'),
  },
  {
    name: 'every other year on January, February and March for 10 occurrences',
    start: '19970310T0900',
    lines: ['RRULE:FREQ=YEARLY;INTERVAL=2;COUNT=10;BYMONTH=1,2,3'],
    expected: days('1997-3: 10; 1999-1: 10; 1999-2: 10; 1999-3: 10; 2001-1: 10; 2001-2: 10; 2001-3: 10; 2003-1: 10; 2003-2: 10; 2003-3: 10'),
  },
  {
    name: 'every third year on the 1st, 100th and 200th day for 10 occurrences',
    start: '19970101T0900',
    lines: ['RRULE:FREQ=YEARLY;INTERVAL=3;COUNT=10;BYYEARDAY=1,100,200'],
    expected: days('1997-1: 1; 1997-4: 10; 1997-7: 19; 2000-1: 1; 2000-4: 9; 2000-7: 18; 2003-1: 1; 2003-4: 10; 2003-7: 19; 2006-1: 1'),
  },
  { name: 'every 20th Monday of the year, forever', start: '19970519T0900', lines: ['RRULE:FREQ=YEARLY;BYDAY=20MO'], expected: days('1997-5: 19; 1998-5: 18; 1999-5: 17') },
  { name: 'Monday of week number 20, forever', start: '19970512T0900', lines: ['RRULE:FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO'], expected: days('1997-5: 12; 1998-5: 11; 1999-5: 17') },
  {
    name: 'every Thursday in March, forever',
    start: '19970313T0900',
    lines: ['RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=TH'],
    expected: days('1997-3: 13,20,27; 1998-3: 5,12,19,26; 1999-3: 4,11,18,25'),
  },
  {
    name: 'every Thursday, but only during June, July and August, forever',
    start: '19970605T0900',
    lines: ['RRULE:FREQ=YEARLY;BYDAY=TH;BYMONTH=6,7,8'],
    expected: days('1997-6: 5,12,19,26; 1997-7: 3,10,17,24,31; 1997-8: 7,14,21,28; 1998-6: 4,11,18,25; 1998-7: 2,9,16,23,30; 1998-8: 6,13,20,27; 1999-6: 3,10,17,24; 1999-7: 1,8,15,22,29; 1999-8: 5,12,19,26'),
  },
  {
    name: 'every Friday the 13th, forever (start excluded by EXDATE)',
    start: '19970902T0900',
    lines: ['EXDATE;TZID=America/New_York:19970902T090000', 'RRULE:FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13'],
    expected: days('1998-2: 13; 1998-3: 13; 1998-11: 13; 1999-8: 13; 2000-10: 13'),
  },
  {
    name: 'the first Saturday that follows the first Sunday of the month, forever',
    start: '19970913T0900',
    lines: ['RRULE:FREQ=MONTHLY;BYDAY=SA;BYMONTHDAY=7,8,9,10,11,12,13'],
    expected: days('1997-9: 13; 1997-10: 11; 1997-11: 8; 1997-12: 13; 1998-1: 10; 1998-2: 7; 1998-3: 7; 1998-4: 11; 1998-5: 9; 1998-6: 13'),
  },
  {
    name: 'US Presidential Election day, every 4 years',
    start: '19961105T0900',
    lines: ['RRULE:FREQ=YEARLY;INTERVAL=4;BYMONTH=11;BYDAY=TU;BYMONTHDAY=2,3,4,5,6,7,8'],
    expected: days('1996-11: 5; 2000-11: 7; 2004-11: 2'),
  },
  {
    name: 'the third instance of Tuesday, Wednesday or Thursday, for the next 3 months',
    start: '19970904T0900',
    lines: ['RRULE:FREQ=MONTHLY;COUNT=3;BYDAY=TU,WE,TH;BYSETPOS=3'],
    expected: days('1997-9: 4; 1997-10: 7; 1997-11: 6'),
  },
  {
    name: 'the second-to-last weekday of the month',
    start: '19970929T0900',
    lines: ['RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-2'],
    expected: days('1997-9: 29; 1997-10: 30; 1997-11: 27; 1997-12: 30; 1998-1: 29; 1998-2: 26; 1998-3: 30'),
  },
  {
    // The RFC prints UNTIL=19970902T170000Z, which is 13:00 EDT and contradicts its own
    // 15:00 result (a known erratum); the floating 17:00 local bound gives the listed result.
    name: 'every 3 hours from 9:00 AM to 5:00 PM on a specific day',
    start: '19970902T0900',
    lines: ['RRULE:FREQ=HOURLY;INTERVAL=3;UNTIL=19970902T170000'],
    expected: ['19970902T0900', '19970902T1200', '19970902T1500'],
  },
  {
    name: 'every 15 minutes for 6 occurrences',
    start: '19970902T0900',
    lines: ['RRULE:FREQ=MINUTELY;INTERVAL=15;COUNT=6'],
    expected: ['19970902T0900', '19970902T0915', '19970902T0930', '19970902T0945', '19970902T1000', '19970902T1015'],
  },
  {
    name: 'every hour and a half for 4 occurrences',
    start: '19970902T0900',
    lines: ['RRULE:FREQ=MINUTELY;INTERVAL=90;COUNT=4'],
    expected: ['19970902T0900', '19970902T1030', '19970902T1200', '19970902T1330'],
  },
  {
    name: 'every 20 minutes from 9:00 AM to 4:40 PM every day (daily form)',
    start: '19970902T0900',
    lines: ['RRULE:FREQ=DAILY;BYHOUR=9,10,11,12,13,14,15,16;BYMINUTE=0,20,40'],
    expected: everyTwenty(),
  },
  {
    name: 'every 20 minutes from 9:00 AM to 4:40 PM every day (minutely form)',
    start: '19970902T0900',
    lines: ['RRULE:FREQ=MINUTELY;INTERVAL=20;BYHOUR=9,10,11,12,13,14,15,16'],
    expected: everyTwenty(),
  },
  { name: 'WKST=MO changes the result', start: '19970805T0900', lines: ['RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=MO'], expected: days('1997-8: 5,10,19,24') },
  { name: 'WKST=SU changes the result', start: '19970805T0900', lines: ['RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU'], expected: days('1997-8: 5,17,19,31') },
  {
    name: 'an invalid date (February 30) is skipped',
    start: '20070115T0900',
    lines: ['RRULE:FREQ=MONTHLY;BYMONTHDAY=15,30;COUNT=5'],
    expected: days('2007-1: 15,30; 2007-2: 15; 2007-3: 15,30'),
  },
];

function everyTwenty(): string[] {
  const out: string[] = [];
  for (const day of ['19970902', '19970903']) {
    for (let h = 9; h <= 16; h++) for (const m of [0, 20, 40]) out.push(`${day}T${String(h).padStart(2, '0')}${String(m).padStart(2, '0')}`);
  }
  return out;
}

for (const v of vectors) {
  test(`RFC 5545 §3.8.5.3: ${v.name}`, () => {
    const series = timedSeries(v.start, NY, v.lines);
    const bounded = v.lines.some((l) => /COUNT=|UNTIL=/.test(l));
    // Bounded rules must produce exactly the list; infinite ones start with it.
    const got = firstN(series, bounded ? v.expected.length + 5 : v.expected.length);
    assert.deepEqual(got, v.expected);
  });
}
