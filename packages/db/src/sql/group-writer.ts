interface PendingWrite<T> {
  item: T;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Writes items in groups (group commit): a write that comes while a group is being stored waits
 * and goes with the next group, so under load many writes share one statement — one round trip,
 * one commit, one parse and plan — while an idle writer stores at once, adding no delay: the
 * writes made in the same turn of the event loop, up to a microtask later, go as one group.
 * Groups are stored one at a time, in the order their writes came; each write resolves once its
 * group is stored. A group that fails is written again item by item, so a bad item fails its own
 * write and no other.
 */
export class GroupWriter<T> {
  readonly #writeGroup: (items: readonly T[]) => Promise<void>;
  readonly #maxGroup: number;
  #pending: PendingWrite<T>[] = [];
  #isWriting = false;
  #last: Promise<void> = Promise.resolve();

  /**
   * @param writeGroup stores the items (in the order given) in one statement.
   * @param maxGroup the most items in one group.
   */
  constructor(writeGroup: (items: readonly T[]) => Promise<void>, maxGroup: number) {
    this.#writeGroup = writeGroup;
    this.#maxGroup = Math.max(1, maxGroup);
  }

  /** Stores `item` with the next group; resolves once it is stored, rejects with its failure. */
  write(item: T): Promise<void> {
    const written = new Promise<void>((resolve, reject) => {
      this.#pending.push({ item, resolve, reject });
    });
    this.#last = written.catch(() => {});
    if (!this.#isWriting) {
      this.#isWriting = true;
      queueMicrotask(() => void this.#drain());
    }
    return written;
  }

  /** Resolves once every write made so far is stored or has failed. */
  whenWritten(): Promise<void> {
    return this.#last;
  }

  async #drain(): Promise<void> {
    try {
      while (this.#pending.length > 0) await this.#store(this.#pending.splice(0, this.#maxGroup));
    } finally {
      this.#isWriting = false;
    }
  }

  async #store(group: readonly PendingWrite<T>[]): Promise<void> {
    try {
      await this.#writeGroup(group.map((write) => write.item));
      for (const write of group) write.resolve();
      return;
    } catch (error) {
      if (group.length === 1) {
        (group[0] as PendingWrite<T>).reject(error);
        return;
      }
    }
    for (const write of group) {
      try {
        await this.#writeGroup([write.item]);
        write.resolve();
      } catch (error) {
        write.reject(error);
      }
    }
  }
}
