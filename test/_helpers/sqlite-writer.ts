// Child process for the SQLite durability test (test/store/store.test.ts): opens the store at
// argv[2] and writes events forever, printing each event id on stdout only once the store says
// the write is committed (Store.durable), as the HTTP layer waits before it answers. The parent kills it with SIGKILL at some point mid-stream.

import { openStore } from '../../src/store/open.ts';

const path = process.argv[2];
if (path === undefined) throw new Error('usage: sqlite-writer.ts <db-file>');
const store = await openStore(path);
const T0 = Date.UTC(2024, 0, 1);

for (let i = 0; i < 1_000_000; i++) {
  const id = `ev${String(i).padStart(7, '0')}`;
  const write = (seq: number): void =>
    store.putEvent({
      calendarId: 'durable',
      id,
      seq,
      status: 'confirmed',
      recurring: false,
      recurringEventId: null,
      originalStartMs: null,
      startMs: T0 + i * 60_000,
      endMs: T0 + i * 60_000 + 30_000,
      iCalUID: `${id}@example.test`,
      updatedMs: T0,
      data: { summary: `Event ${i}` },
    });
  // Alternate between a bare autocommitted write and an explicit transaction.
  if (i % 2 === 0) write(i + 1);
  else store.transaction(() => write(store.nextSeq()));
  await store.durable();
  process.stdout.write(`${id}\n`);
}
store.close();
