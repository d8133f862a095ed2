/** One page: `data`, the cursor of the next page, and whether there is one. */
export interface Page<T> {
  data: T[];
  nextCursor: string | null;
  hasMore: boolean;
}

/**
 * A list call: a real Promise of one page (`await`, `.then`, `.catch`, `Promise.all`), which is also an async iterable
 * of every item across pages (`for await`, following `nextCursor` until it is null). The first page is requested at
 * once, as a Promise does; iterating reuses it, so each page is one request.
 */
export type PageResult<T> = Promise<Page<T>> & AsyncIterable<T>;

type FetchPage<T> = (cursor: string | undefined) => Promise<{ data: T[]; nextCursor: string | null }>;

const toPage = <T>(p: { data: T[]; nextCursor: string | null }): Page<T> => ({
  data: p.data,
  nextCursor: p.nextCursor,
  hasMore: p.nextCursor !== null,
});

export function pageResult<T>(fetchPage: FetchPage<T>, cursor?: string): PageResult<T> {
  const first = fetchPage(cursor).then(toPage);
  return Object.assign(first, {
    async *[Symbol.asyncIterator](): AsyncGenerator<T> {
      let page = await first;
      yield* page.data;
      while (page.nextCursor !== null) {
        page = toPage(await fetchPage(page.nextCursor));
        yield* page.data;
      }
    },
  });
}
