import { upsertCompanies } from '../companies/index.js';
import { insertContact } from '../contacts/index.js';
import { writePost } from '../posts/index.js';
import { firstFreeSlug, hashEmail, newId, slugify, suppressionDigest } from '../shared/index.js';
import {
  boards,
  changelogEntries,
  comments,
  companies,
  contacts,
  importRecords,
  type Sql,
  suppressions,
  tags,
  votes,
  type WorkspaceContext,
} from '../store/index.js';
import { IMPORT_KINDS, type ImportBundle, type ImportKind, type ImportSummary } from './bundle.js';

/** What every kind's writer shares: the transaction, the workspace, the bundle, and what each source id became. */
interface Run {
  tx: Sql;
  organizationId: string;
  bundle: ImportBundle;
  now: Date;
  cap: number | null;
  people: Map<string, ImportBundle['people'][number]>;
  /** Each item of a kind not recorded yet: `make` writes it and answers what it became (null: nothing to write). */
  each<T extends { id: string }>(
    kind: ImportKind,
    items: readonly T[],
    make: (item: T) => Promise<string | null>,
  ): Promise<void>;
  /** What a source id of a kind became here, if it was brought in. */
  target(kind: ImportKind, id: string | null): string | undefined;
}

/** Write what is new of the bundle, kind after kind (what a kind refers to comes before it). */
export async function write(
  tx: Sql,
  { organizationId, clock }: WorkspaceContext,
  bundle: ImportBundle,
  summary: ImportSummary,
  cap: number | null,
  progress: (kind: ImportKind, done: number, total: number) => void,
): Promise<void> {
  const now = clock();
  const known = new Map<ImportKind, Map<string, string>>();
  for (const kind of IMPORT_KINDS)
    known.set(kind, await importRecords.targets(tx, { organizationId, source: bundle.source, kind }));
  const run: Run = {
    tx,
    organizationId,
    bundle,
    now,
    cap,
    people: new Map(bundle.people.map((p) => [p.id, p])),
    async each(kind, items, make) {
      const seen = known.get(kind)!;
      let done = 0;
      for (const item of items) {
        done++;
        if (seen.has(item.id)) summary.skipped[kind]++;
        else {
          const target = await make(item);
          if (target !== null) {
            seen.set(item.id, target);
            await importRecords.record(tx, { organizationId, source: bundle.source, kind }, item.id, target, now);
            summary.created[kind]++;
          }
        }
        if (done % 500 === 0 || done === items.length) progress(kind, done, items.length);
      }
    },
    target: (kind, id) => (id === null ? undefined : known.get(kind)!.get(id)),
  };
  for (const writer of [companiesOf, people, boardsOf, tagsOf, postsOf, votesOf, commentsOf, changelogOf])
    await writer(run);
}

/**
 * Companies: the one with that externalCompanyId here (left as it is: the workspace's own data is newer), else a new
 * one, announced by `company.created` as every company made.
 */
async function companiesOf(run: Run): Promise<void> {
  await run.each('company', run.bundle.companies, async ({ id, ...fields }) => {
    const found = (await companies.findByExternalIds(run.tx, run.organizationId, [id])).get(id);
    if (found) return found.id;
    const [made] = await upsertCompanies(run.tx, run.organizationId, [{ externalCompanyId: id, ...fields }], run.now);
    return made!.company.id;
  });
}

/**
 * People with an address: the contact that address has (left as it is), else a new one (legacy_inferred) with its
 * companies, unless the address was erased.
 */
async function people(run: Run): Promise<void> {
  const salt = await suppressions.saltOf(run.tx, run.organizationId, false);
  await run.each('person', run.bundle.people, async (person) => {
    if (!person.email) return null;
    if (
      salt &&
      (await suppressions.suppressed(run.tx, run.organizationId, [suppressionDigest(salt, person.email)])).size > 0
    )
      return null;
    const existing = await contacts.findIdByEmailHash(run.tx, run.organizationId, hashEmail(person.email)!);
    if (existing) return existing;
    const seen = new Date(person.createdAt ?? run.now.toISOString());
    const fields = {
      externalUserId: null,
      email: person.email,
      name: person.name,
      plan: null,
      mrrCents: null,
      currency: null,
      metadata: {},
      locale: null,
      source: 'admin' as const,
      consentBasis: 'legacy_inferred' as const,
      firstSeenAt: seen,
      lastSeenAt: seen,
    };
    const made = await insertContact(run.tx, run.organizationId, fields, run.now, run.cap);
    if (!made) return null;
    const memberOf = (person.companyIds ?? []).flatMap((c) => run.target('company', c) ?? []);
    if (memberOf.length > 0) await companies.setForContact(run.tx, made.id, memberOf);
    return made.id;
  });
}

/** Boards, with their dates and visibility. */
async function boardsOf(run: Run): Promise<void> {
  await run.each('board', run.bundle.boards, async (board) => {
    const at = board.createdAt ?? run.now.toISOString();
    const base = slugify(board.name).slice(0, 80).replace(/-+$/, '') || 'board';
    const id = newId('brd', Date.parse(at));
    const slug = firstFreeSlug(base, await boards.slugsLike(run.tx, run.organizationId, base));
    await boards.insert(run.tx, {
      id,
      organizationId: run.organizationId,
      name: board.name.slice(0, 200),
      description: null,
      slug,
      isPublic: board.isPublic,
      createdAt: at,
      updatedAt: at,
    });
    return id;
  });
}

/** Tags: a tag with the same slug here is the one they become. */
async function tagsOf(run: Run): Promise<void> {
  await run.each('tag', run.bundle.tags, async (tag) => {
    const slug = slugify(tag.name);
    const existing = (await tags.list(run.tx, run.organizationId)).find((t) => t.slug === slug);
    if (existing) return existing.id;
    const id = newId('tag', run.now.getTime());
    await tags.insert(run.tx, {
      id,
      organizationId: run.organizationId,
      name: tag.name.slice(0, 100),
      slug,
      createdAt: run.now.toISOString(),
    });
    return id;
  });
}

/** Posts, with their status, author, dates and tags. */
async function postsOf(run: Run): Promise<void> {
  await run.each('post', run.bundle.posts, async (post) => {
    const boardId = run.target('board', post.boardId);
    if (!boardId) return null;
    const author = post.authorId === null ? undefined : run.people.get(post.authorId);
    const text = post.bodyText.slice(0, 50_000);
    const made = await writePost(
      run.tx,
      run.organizationId,
      {
        boardId,
        title: post.title.slice(0, 200),
        ...(text ? { body: { json: { type: 'doc', text }, text } } : {}),
        contactId: run.target('person', post.authorId) ?? null,
        authorName: post.authorName ?? author?.name ?? null,
        tagIds: post.tagIds.flatMap((t) => run.target('tag', t) ?? []).slice(0, 3),
        moderationStatus: 'approved',
        status: post.status,
      },
      new Date(post.createdAt),
    );
    return made.id;
  });
}

/** Votes, counted on their posts and impact. */
async function votesOf(run: Run): Promise<void> {
  await run.each('vote', run.bundle.votes, async (vote) => {
    const postId = run.target('post', vote.postId);
    if (!postId) return null;
    const email = vote.personId === null ? null : (run.people.get(vote.personId)?.email ?? null);
    const emailHash = hashEmail(email);
    const id = newId('vote', Date.parse(vote.createdAt));
    const counted = await votes.insert(run.tx, {
      id,
      organizationId: run.organizationId,
      postId,
      userId: null,
      emailHash,
      voterKey: emailHash ? votes.voterKey(null, emailHash) : `x:${run.bundle.source}:${vote.personId ?? vote.id}`,
      contactId: run.target('person', vote.personId) ?? null,
      createdAt: new Date(vote.createdAt),
    });
    // Null: this person has a vote on the post already (one each, as here).
    return counted === null ? null : id;
  });
}

/** Comments, replies after what they answer. */
async function commentsOf(run: Run): Promise<void> {
  await run.each('comment', run.bundle.comments, async (comment) => {
    const postId = run.target('post', comment.postId);
    if (!postId) return null;
    const person = comment.personId === null ? undefined : run.people.get(comment.personId);
    const id = newId('cmt', Date.parse(comment.createdAt));
    await comments.insert(run.tx, {
      id,
      organizationId: run.organizationId,
      postId,
      parentId: run.target('comment', comment.parentId) ?? null,
      authorUserId: null,
      authorName: comment.authorName ?? person?.name ?? null,
      emailHash: hashEmail(person?.email),
      contactId: run.target('person', comment.personId) ?? null,
      official: comment.official,
      bodyText: comment.bodyText.slice(0, 10_000),
      createdAt: new Date(comment.createdAt),
    });
    return id;
  });
}

/** Changelog entries, published where they were, when they were. */
async function changelogOf(run: Run): Promise<void> {
  await run.each('changelog', run.bundle.changelog, async (entry) => {
    const boardId = run.target('board', entry.boardId);
    if (!boardId) return null;
    const base = slugify(entry.title);
    const id = newId('chg', Date.parse(entry.createdAt));
    await changelogEntries.insert(run.tx, {
      id,
      organizationId: run.organizationId,
      boardId,
      title: entry.title.slice(0, 200),
      slug: firstFreeSlug(base, await changelogEntries.slugsLike(run.tx, boardId, base)),
      body: entry.body.slice(0, 50_000),
      status: 'draft',
      publishedAt: null,
      createdAt: entry.createdAt,
      updatedAt: entry.createdAt,
    });
    // Published where it was, when it was: no mail and no event go out for it again.
    if (entry.publishedAt) {
      const published = changelogEntries.publish(run.tx, run.organizationId, id, new Date(entry.publishedAt));
      await run.tx.run(published.sql, published.params);
    }
    const shipped = entry.postIds.flatMap((p) => run.target('post', p) ?? []);
    if (shipped.length > 0) await changelogEntries.setPosts(run.tx, id, shipped);
    return id;
  });
}
