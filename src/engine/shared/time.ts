/**
 * The time of a change to something whose last change was at `previous`: the clock, read after the read the change
 * depends on. A clock behind `previous` (another instance's clock, or one that stepped back) gives 1 ms past
 * `previous` instead, so one thing's changes (a contact's versions, a post's statuses) and their events are in the
 * same order by time as by version. The same millisecond is kept: within a process, ids made later sort later, so
 * `(created_at, id)` still follows the versions; and a change is never stamped ahead of the clock that writes it,
 * which would leave what it causes (a delivery, a mail) not yet due.
 */
export function changeTime(clock: () => Date, previous: Date | string | null | undefined): Date {
  const now = clock();
  if (previous === null || previous === undefined) return now;
  const last = typeof previous === 'string' ? Date.parse(previous) : previous.getTime();
  return now.getTime() >= last ? now : new Date(last + 1);
}
