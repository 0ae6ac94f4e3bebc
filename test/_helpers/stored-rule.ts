// An event's recurrence rewritten straight in a SQLite file, as an older build of the service could
// have stored it before a cap that now refuses it. The service using the file must be closed.

export async function storeRecurrence(db: string, calendarId: string, eventId: string, lines: readonly string[]): Promise<void> {
  const { DatabaseSync } = await import('node:sqlite');
  const file = new DatabaseSync(db);
  try {
    const where = 'WHERE calendar_id = ? AND id = ?';
    const row = file.prepare(`SELECT data FROM events ${where}`).get(calendarId, eventId) as { data: string } | undefined;
    if (row === undefined) throw new Error(`no event ${eventId} of ${calendarId} in ${db}`);
    const data = JSON.parse(row.data) as { recurrence?: readonly string[] };
    data.recurrence = lines;
    file.prepare(`UPDATE events SET data = ? ${where}`).run(JSON.stringify(data), calendarId, eventId);
  } finally {
    file.close();
  }
}
