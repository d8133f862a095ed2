// Search: the one syntax people type (docs/search.md), the one post search of the portal and the console, and the
// languages a workspace's posts may be read in. The statements are the store's (store/tables/search.ts).

export { cosine, createEmbeddings, type Embeddings, type EmbeddingsOptions, embedPending } from './embeddings.js';
export { forgive, oneTypoAway, STEM_LANGUAGES, type StemLanguage, TYPO_MIN_LENGTH } from './forgive.js';
export { SEARCH_LANGUAGES, type SearchLanguage } from './languages.js';
export { type RelevancePosition, searchPosts } from './posts.js';
export {
  BUILT_IN_SYNONYMS,
  DUPLICATE_THRESHOLD,
  oneTypoApart,
  similarity,
  titleReader,
  type WordWeight,
} from './similar.js';
export { semanticScore, similarPosts } from './similar-posts.js';
export { parseSearch, SEARCH_MAX_WORDS } from './syntax.js';
