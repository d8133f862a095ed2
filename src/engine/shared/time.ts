/**
 * The time of a change to something whose last change was at `previous`: the clock, read after the read the change
 * depends on, and never at or before `previous`. So one thing's changes (a contact's versions, a post's statuses) and
 * their events are in the same order by time as by version, whichever instance writes them and however its clock
 * stands against the others'. A clock behind by a few milliseconds moves the change 1 ms past the previous one.
 */
export function changeTime(clock: () => Date, previous: Date | string | null | undefined): Date {
  const now = clock();
  if (previous === null || previous === undefined) return now;
  const floor = (typeof previous === 'string' ? Date.parse(previous) : previous.getTime()) + 1;
  return now.getTime() >= floor ? now : new Date(floor);
}
