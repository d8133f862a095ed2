import { writeFileSync } from 'node:fs';
import { type DatabaseOptions, withEngine } from '../common.js';
import { type Io, print } from '../io.js';

export interface ExportOptions extends DatabaseOptions {
  org: string;
  /** Write the document to this file (mode 0600) instead of printing it. */
  out?: string;
}

/** `contact export`: everything held about the person, as one JSON document (docs/privacy.md). */
export async function exportContact(contactId: string, options: ExportOptions, io: Io): Promise<void> {
  const document = await withEngine(options.db, (e) => e.workspace(options.org).privacy.export(contactId));
  const text = `${JSON.stringify(document, null, 2)}\n`;
  if (!options.out) return io.out(text);
  // It holds a person's data: readable by the owner only.
  writeFileSync(options.out, text, { mode: 0o600 });
  const what = document.contact ? `contact ${contactId}` : `the erasure of contact ${contactId}`;
  print(
    io,
    options.json,
    { out: options.out, contactId, erased: document.contact === null },
    `Wrote everything held about ${what} to ${options.out}.`,
  );
}

export interface EraseOptions extends DatabaseOptions {
  org: string;
}

/** `contact erase`: the person deleted, their traces taken out, a salted hash of the address kept (docs/privacy.md). */
export async function erase(contactId: string, options: EraseOptions, io: Io): Promise<void> {
  const r = await withEngine(options.db, (e) => e.workspace(options.org).privacy.erase(contactId));
  const others = r.contactIds.filter((id) => id !== contactId);
  const n = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
  print(
    io,
    options.json,
    { ...r },
    [
      `Erased contact ${contactId}${others.length ? ` and ${others.join(', ')} (the same address)` : ''}: contact.deleted emitted${others.length ? ' for each' : ''}.`,
      `Taken off: ${n(r.votes, 'vote')}, ${n(r.comments, 'comment')}, ${n(r.posts, 'post')} (they stay, without the person); deleted: ${n(r.mail, 'mail message')}, ${n(r.sessions, 'portal session or code', 'portal sessions and codes')}, ${n(r.idempotentAnswers, 'kept request answer')}; ${n(r.events, 'event payload')} redacted.`,
      r.suppressed
        ? 'A salted hash of the address is on the suppression list: it comes back only with a fresh opt-in of its own.'
        : 'The contact had no address: nothing to suppress.',
    ].join('\n'),
  );
}
