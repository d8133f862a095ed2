// The layering of the package's faces, checked by `npm run lint:layers` (and by CI). Floors, lowest first:
//   schemas, contract, verify   the ground floor: import nothing of ours (contract reads schemas)
//   engine, client              engine knows no HTTP framework; client is light (ky, the contract, zod-free modules)
//   h3                          the REST adapter
//   mcp                         the agent tools (its HTTP endpoint is one an h3 app mounts; it may drive the tools
//                               through the client)
//   portal                      the end-user pages: on the engine, a site an h3 app serves (createApp({ sites }))
//   console                     the team's pages: on the engine, a site an h3 app serves, like the portal
//   msw, cli                    on top: they put the others together
// Nothing imports a face above it; a face enters another only through its public entry (index.ts, verify/node.ts),
// never its internal/ folder, and the engine only through src/engine/index.ts.
const face = (names) => `^src/(${names.join('|')})/`;
// Inside the engine, floors too: shared/ (pure helpers) < store/ (one module per table) < the concept folders (a folder
// per concept: contacts/, posts/, delivery/, ...) < the engine's root files (engine.ts, workspace.ts, operations.ts, ...).
// A concept folder uses store/, shared/ and every other concept only through its index.ts, its door; nothing below
// imports anything above it.
/** Any engine folder that is a concept: everything but the floors below them and the migrations. */
const CONCEPT = '^src/engine/(?!store/|shared/|migrations/)([^/]+)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    { name: 'no-cycles', severity: 'error', comment: 'Modules import each other in a circle: break it with a shared module below both.', from: {}, to: { circular: true } },
    { name: 'schemas-ground-floor', severity: 'error', comment: 'schemas imports nothing of ours.', from: { path: '^src/schemas/' }, to: { path: '^src/', pathNot: '^src/schemas/' } },
    { name: 'contract-ground-floor', severity: 'error', comment: 'contract imports only schemas.', from: { path: '^src/contract/' }, to: { path: '^src/', pathNot: '^src/(contract|schemas)/' } },
    { name: 'verify-ground-floor', severity: 'error', comment: 'verify imports nothing of ours.', from: { path: '^src/verify/' }, to: { path: '^src/', pathNot: '^src/verify/' } },
    { name: 'verify-zero-dependency', severity: 'error', comment: 'verify runs in Node, Workers, Deno and Bun with no package installed.', from: { path: '^src/verify/' }, to: { dependencyTypes: ['npm', 'npm-dev', 'npm-peer', 'npm-optional', 'npm-no-pkg', 'npm-unknown'] } },
    { name: 'public-entries', severity: 'error', comment: "A face uses another as its users do, never its internal/ folder.", from: { path: '^src/([^/]+)/' }, to: { path: '^src/[^/]+/internal/', pathNot: '^src/$1/' } },
    { name: 'engine-door', severity: 'error', comment: 'Other faces enter the engine only through src/engine/index.ts.', from: { path: '^src/', pathNot: '^src/engine/' }, to: { path: '^src/engine/', pathNot: '^src/engine/index\\.ts$' } },
    { name: 'engine-below-adapters', severity: 'error', comment: 'The engine knows no HTTP framework and no face above it.', from: { path: '^src/engine/' }, to: { path: face(['h3', 'client', 'mcp', 'msw', 'cli', 'portal', 'console']) } },
    {
      name: 'engine-concepts-through-doors',
      severity: 'error',
      comment: "A concept folder uses store/, shared/ and other concepts only through their index.ts (what they offer), never their insides.",
      from: { path: CONCEPT },
      to: { path: '^src/engine/[^/]+/', pathNot: ['^src/engine/$1/', '^src/engine/[^/]+/index\\.ts$', '^src/engine/migrations/'] },
    },
    {
      name: 'engine-shared-is-the-floor',
      severity: 'error',
      comment: 'shared/ holds pure helpers: it imports nothing else of the engine.',
      from: { path: '^src/engine/shared/' },
      to: { path: '^src/engine/', pathNot: '^src/engine/shared/' },
    },
    {
      name: 'engine-store-below-concepts',
      severity: 'error',
      comment: 'store/ (the tables and their statements) imports only shared/ below it: no concept, no root file.',
      from: { path: '^src/engine/store/' },
      to: { path: '^src/engine/', pathNot: ['^src/engine/(store|shared)/'] },
    },
    {
      name: 'engine-root-through-doors',
      severity: 'error',
      comment: "The engine's root files (engine.ts, workspace.ts, runtime.ts, ...) use each folder through its index.ts too.",
      from: { path: '^src/engine/[^/]+\\.ts$' },
      to: { path: '^src/engine/[^/]+/', pathNot: ['^src/engine/[^/]+/index\\.ts$'] },
    },
    {
      name: 'engine-concepts-below-root',
      severity: 'error',
      comment: "Concepts do not import the engine's root files (engine.ts, workspace.ts, operations.ts, ...): those put the concepts together.",
      from: { path: '^src/engine/[^/]+/' },
      to: { path: '^src/engine/[^/]+\\.ts$' },
    },
    { name: 'engine-no-http-framework', severity: 'error', comment: 'The engine knows no HTTP framework.', from: { path: '^src/engine/' }, to: { path: 'node_modules/(h3|srvx|ky|msw)/' } },
    { name: 'client-light', severity: 'error', comment: 'The client runs on edge runtimes: ky, the contract and zod-free modules only.', from: { path: '^src/client/' }, to: { path: face(['engine', 'h3', 'mcp', 'msw', 'cli', 'portal', 'console']) } },
    { name: 'client-no-zod', severity: 'error', comment: 'The client bundles no zod: it imports zod-free modules (contract/operations, schemas/error-codes) and types.', from: { path: '^src/client/' }, to: { path: 'node_modules/zod/', dependencyTypesNot: ['type-only'] } },
    { name: 'h3-below-top', severity: 'error', comment: 'h3 serves the engine; the server (cli) mounts other endpoints beside it.', from: { path: '^src/h3/' }, to: { path: face(['client', 'mcp', 'msw', 'cli', 'portal', 'console']) } },
    { name: 'mcp-below-top', severity: 'error', from: { path: '^src/mcp/' }, to: { path: face(['msw', 'cli', 'portal', 'console']) } },
    { name: 'msw-below-cli', severity: 'error', from: { path: '^src/msw/' }, to: { path: face(['cli']) } },
    { name: 'portal-below-cli', severity: 'error', comment: 'The portal is mounted by the server (cli) beside the REST routes.', from: { path: '^src/portal/' }, to: { path: face(['cli', 'msw', 'mcp', 'client', 'console']) } },
    { name: 'console-below-cli', severity: 'error', comment: 'The console is mounted by the server (cli) beside the portal; the two know nothing of each other.', from: { path: '^src/console/' }, to: { path: face(['cli', 'msw', 'mcp', 'client', 'portal']) } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
