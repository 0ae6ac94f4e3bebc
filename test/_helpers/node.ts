// How to run this project's TypeScript in a child process on the runtime the tests run on:
// natively with type stripping on Node >= 22.13, through tsx's loader on Node 20.

export const nativeTypeScript =
  process.execArgv.includes('--experimental-strip-types') || Boolean((process.features as { typescript?: unknown }).typescript);

export const nodeTsArgs: string[] = nativeTypeScript ? ['--experimental-strip-types', '--no-warnings'] : ['--import', 'tsx'];

export const sqliteAvailable: boolean = await import('node:sqlite').then(
  () => true,
  () => false,
);

export const SQLITE_SKIP = sqliteAvailable ? false : `node:sqlite needs Node >= 22.13 (this is ${process.version})`;
