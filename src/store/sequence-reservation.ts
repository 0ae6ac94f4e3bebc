// The SQLite store's change sequence (Store.nextSeq), handed out from memory.
//
// Meta `seq` is a reservation: the highest sequence this store may hand out before it writes a
// new one, and each reservation is written inside the transaction that needs it. So at most one
// write in SEQ_RESERVATION pays for the meta row, while a sequence in any committed row is
// always <= the committed reservation: after a crash numbering resumes above everything
// committed, and after a rollback the next sequence writes a fresh reservation. Gaps are allowed
// (the Store contract only asks for strictly increasing). When another connection commits
// (other-connections.ts), the store reloads the reservation, so a second process on the same
// file still never makes the sequence go backwards.

/** Sequences reserved by one write of meta `seq`. */
const SEQ_RESERVATION = 1000;

export class SequenceReservation {
  readonly #readCommitted: () => number;
  readonly #writeReservation: (reservation: number) => void;
  /** The last sequence handed out. */
  #seq = 0;
  /** The committed meta `seq`: next() may hand out up to this without writing. */
  #reserved = 0;

  /** `readCommitted` reads meta `seq`; `writeReservation` writes it in the current transaction. */
  constructor(readCommitted: () => number, writeReservation: (reservation: number) => void) {
    this.#readCommitted = readCommitted;
    this.#writeReservation = writeReservation;
  }

  /** Takes the committed reservation as the new ceiling; the counter never goes down. */
  reload(): void {
    const stored = this.#readCommitted();
    this.#seq = Math.max(this.#seq, stored);
    this.#reserved = stored;
  }

  /**
   * After a rollback: a reservation written in the rolled-back part is gone, so the next
   * sequence writes a new one (above every sequence handed out) instead of trusting it.
   */
  forget(): void {
    this.#reserved = 0;
  }

  next(): number {
    const seq = ++this.#seq;
    if (seq > this.#reserved) {
      this.#writeReservation(seq + SEQ_RESERVATION - 1);
      this.#reserved = seq + SEQ_RESERVATION - 1;
    }
    return seq;
  }

  /**
   * The [last handed out, reserved] pair when part of the reservation is unused, for a clean
   * close to give back, so that a restart numbers on without a gap.
   */
  unused(): [number, number] | undefined {
    return this.#seq < this.#reserved ? [this.#seq, this.#reserved] : undefined;
  }
}
