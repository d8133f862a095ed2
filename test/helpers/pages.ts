/** The ids of every page of a keyset walk, in order: `page(cursor)` fetches one, from the start when `cursor` is undefined. */
export async function walkIds(
  page: (cursor: string | undefined) => Promise<{ data: Array<{ id: string }>; nextCursor: string | null }>,
  maxPages = 100,
): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let n = 0; n < maxPages; n++) {
    const { data, nextCursor } = await page(cursor);
    ids.push(...data.map((p) => p.id));
    if (!nextCursor) return ids;
    cursor = nextCursor;
  }
  throw new Error(`the walk did not end within ${maxPages} pages`);
}
