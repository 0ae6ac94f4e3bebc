// The oldest Node the service runs on (README "Install", package.json `engines`). 20.16 brought
// process.getBuiltinModule and 20.12 crypto.hash to Node 20; Node 21 never had the former, which
// came with 22.3 to the line after it. Imported by main.ts before anything else, so the same
// syntax rule holds here: nothing an old Node cannot parse.

/** The version to ask for when `version` (`process.versions.node`) is too old, else undefined. */
export function nodeFloor(version: string): string | undefined {
  const parts = version.split('.');
  const major = Number(parts[0]);
  const minor = Number(parts[1]);
  if (major < 20 || (major === 20 && minor < 16)) return '20.16';
  if (major === 21 || (major === 22 && minor < 3)) return '22.3';
  return undefined;
}
