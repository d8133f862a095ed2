import { join } from 'node:path';
import { build, type Platform } from 'esbuild';

const root = join(import.meta.dirname, '../..');

/** A face bundled as a user's bundler would (esbuild, minified, dependencies included): its code and the files in it. */
export async function bundle(
  entry: string,
  platform: Platform,
): Promise<{ code: string; bytes: number; inputs: string[] }> {
  const result = await build({
    entryPoints: [join(root, entry)],
    bundle: true,
    minify: true,
    write: false,
    format: 'esm',
    platform,
    metafile: true,
  });
  const code = result.outputFiles[0]!.text;
  return { code, bytes: result.outputFiles[0]!.contents.length, inputs: Object.keys(result.metafile.inputs) };
}
