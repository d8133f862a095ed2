import type { UpsertCompanyBody } from '../../schemas/companies.js';
import type { PostStatus } from '../../schemas/posts.js';

/** What an import brings in, in the order it writes them (what a kind refers to comes before it). */
export const IMPORT_KINDS = ['company', 'person', 'board', 'tag', 'post', 'vote', 'comment', 'changelog'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

/** What an export holds, in our terms; every id is the source tool's. */
export interface ImportBundle {
  source: 'canny' | 'fider';
  /** Paying accounts; a company's id is its externalCompanyId here (Canny's is the one the team's product gave it). */
  companies: Array<Omit<UpsertCompanyBody, 'externalCompanyId'> & { id: string }>;
  /** People; `companyIds` are ids of `companies`, the companies a person belongs to. */
  people: Array<{ id: string; email: string | null; name: string | null; createdAt?: string; companyIds?: string[] }>;
  boards: Array<{ id: string; name: string; isPublic: boolean; createdAt?: string }>;
  tags: Array<{ id: string; name: string }>;
  posts: Array<{
    id: string;
    boardId: string;
    title: string;
    bodyText: string;
    status: PostStatus;
    authorId: string | null;
    authorName: string | null;
    createdAt: string;
    tagIds: string[];
  }>;
  votes: Array<{ id: string; postId: string; personId: string | null; createdAt: string }>;
  comments: Array<{
    id: string;
    postId: string;
    parentId: string | null;
    personId: string | null;
    authorName: string | null;
    official: boolean;
    bodyText: string;
    createdAt: string;
  }>;
  changelog: Array<{
    id: string;
    boardId: string;
    title: string;
    body: string;
    publishedAt: string | null;
    createdAt: string;
    postIds: string[];
  }>;
}

/** What an import did (or, dry, would do): per kind, how many were created, and how many were there already. */
export interface ImportSummary {
  dryRun: boolean;
  created: Record<ImportKind, number>;
  skipped: Record<ImportKind, number>;
}
