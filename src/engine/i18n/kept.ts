/**
 * `make()`'s answer for `key`, kept in `map` (at most `limit` answers; past it the map starts again): the tags and
 * headers people send, and the words a page says, repeat, and working one out costs microseconds.
 */
export function kept<K, V>(map: Map<K, V>, key: K, make: () => V, limit = 2000): V {
  const found = map.get(key);
  if (found !== undefined || map.has(key)) return found as V;
  if (map.size >= limit) map.clear();
  const value = make();
  map.set(key, value);
  return value;
}
