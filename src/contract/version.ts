declare const __PACKAGE_VERSION__: string | undefined;

/** This package's version (package.json), set at build time; `0.0.0-dev` when the sources run without a build step that sets it. */
export const PACKAGE_VERSION: string = typeof __PACKAGE_VERSION__ === 'string' ? __PACKAGE_VERSION__ : '0.0.0-dev';
