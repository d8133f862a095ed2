import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { packagedFile } from './packaged.js';

/** The API reference page: the OpenAPI document rendered by Scalar, served from the package (no CDN). */
export const DOCS_PATH = '/docs';
/** Scalar's standalone bundle, as the page loads it. */
export const DOCS_SCRIPT_PATH = '/docs/api-reference.js';

/** The page: Scalar reads `/v1/openapi.json` from this same server. */
export function docsPage(openapiPath: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Feedback Service API reference</title>
</head>
<body>
<div id="app"></div>
<script src="${DOCS_SCRIPT_PATH}"></script>
<script>Scalar.createApiReference('#app', { url: ${JSON.stringify(openapiPath)}, withDefaultFonts: false, telemetry: false, showDeveloperTools: 'never', agent: { disabled: true }, mcp: { disabled: true } })</script>
</body>
</html>
`;
}

/**
 * Where the bundle is: `dist/assets/api-reference.js` in the package (the build copies it there), or, running the
 * sources, the repository's `assets/api-reference.js` (Scalar's standalone bundle, kept in the repository:
 * scripts/update-api-reference.sh).
 */
const bundlePath = async (): Promise<string | null> =>
  packagedFile('api-reference.js', import.meta.url, new URL('../../assets/api-reference.js', import.meta.url));

let bundle: Promise<{ plain: Uint8Array; gzip: Uint8Array } | null> | undefined;
/** The bundle, read and compressed once (about 4.3 MB, 1.3 MB gzipped); null when the package has none. */
export function referenceBundle(): Promise<{ plain: Uint8Array; gzip: Uint8Array } | null> {
  bundle ??= bundlePath().then(async (path) => {
    if (!path) return null;
    const plain = await readFile(path);
    return { plain, gzip: gzipSync(plain) };
  });
  return bundle;
}
