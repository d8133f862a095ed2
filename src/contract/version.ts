declare const __PACKAGE_VERSION__: string | undefined;
declare const __PACKAGE_HOMEPAGE__: string | undefined;

/** This package's version (package.json), set at build time; `0.0.0-dev` when the sources run without a build step that sets it. */
export const PACKAGE_VERSION: string = typeof __PACKAGE_VERSION__ === 'string' ? __PACKAGE_VERSION__ : '0.0.0-dev';

/** Where the project lives (package.json `homepage`), set at build time; undefined when the sources run without it. */
export const PACKAGE_HOMEPAGE: string | undefined =
  typeof __PACKAGE_HOMEPAGE__ === 'string' ? __PACKAGE_HOMEPAGE__ : undefined;
