/** One page: `data`, the cursor of the next page, and whether there is one. */
export interface Page<T> {
  data: T[];
  nextCursor: string | null;
  hasMore: boolean;
}

/**
 * A list call: `await` it for one page, or `for await` over it for every item across pages (following
 * `nextCursor` until it is null).
 */
export class PageResult<T> implements PromiseLike<Page<T>>, AsyncIterable<T> {
  #first: Promise<Page<T>> | undefined;
  constructor(private readonly fetchPage: (cursor: string | undefined) => Promise<{ data: T[]; nextCursor: string | null }>, private readonly cursor?: string) {}

  then<R1 = Page<T>, R2 = never>(onfulfilled?: ((value: Page<T>) => R1 | PromiseLike<R1>) | null, onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null): Promise<R1 | R2> {
    this.#first ??= this.fetchPage(this.cursor).then((p) => ({ data: p.data, nextCursor: p.nextCursor, hasMore: p.nextCursor !== null }));
    return this.#first.then(onfulfilled, onrejected);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    let cursor = this.cursor;
    do {
      const page = await this.fetchPage(cursor);
      yield* page.data;
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
  }
}
