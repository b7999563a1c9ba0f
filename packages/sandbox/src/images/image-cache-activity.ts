/**
 * What an `ImageCache` object is doing now: the references being acquired (unpacked, or looked
 * up) and listeners told whenever what the cache holds may have changed (an acquire ended, an
 * entry was evicted). Lets a caller keep a snapshot of the held images without reading the cache
 * directory on every use.
 */
export class ImageCacheActivity {
  /** Acquires in progress per reference (several sandboxes may acquire one image at once). */
  readonly #acquiring = new Map<string, number>();
  readonly #listeners = new Set<() => void>();

  /** An acquire of `reference` started; returns its end (call once, success or failure). */
  begin(reference: string): () => void {
    const count = this.#acquiring.get(reference) ?? 0;
    this.#acquiring.set(reference, count + 1);
    if (count === 0) this.changed();
    let hasEnded = false;
    return () => {
      if (hasEnded) return;
      hasEnded = true;
      const left = (this.#acquiring.get(reference) ?? 1) - 1;
      if (left > 0) this.#acquiring.set(reference, left);
      else this.#acquiring.delete(reference);
      this.changed();
    };
  }

  /** The references with an acquire in progress. */
  acquiring(): string[] {
    return [...this.#acquiring.keys()];
  }

  /** Tells every listener; a throwing listener is not the cache's failure. */
  changed(): void {
    for (const listener of this.#listeners) {
      try {
        listener();
      } catch {
        // A listener's own failure stays its own.
      }
    }
  }

  /** Calls `listener` on each change; returns its removal. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }
}
