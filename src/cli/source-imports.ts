// How a start from a source checkout resolves the service's imports of its own modules
// (docs/performance.md "Start-up"). Node's resolver, for each of the some 600 relative imports
// the service starts with, stats the file, finds its real path and looks up the package.json
// that decides its module type: the largest single cost of a start from source, more than
// stripping the types (which the compile cache keeps). A relative `.ts` specifier of a `file:`
// module names exactly one file, which src/ holds (tsc checks every import), and package.json
// says "type": "module"; so the answer is the URL joined, the format TypeScript as an ES module.
// Everything else (node: builtins, and anything when Node lacks synchronous hooks: before 22.15
// and 23.5) goes to Node's own resolver. Imported by main.ts, so in syntax any Node parses.

import module from 'node:module';

interface ResolveContext {
  parentURL?: string;
}
interface Resolved {
  url: string;
  format?: string | null;
  shortCircuit?: boolean;
}
type NextResolve = (specifier: string, context: ResolveContext) => Resolved;
interface HooksApi {
  registerHooks?: (hooks: { resolve: (specifier: string, context: ResolveContext, next: NextResolve) => Resolved }) => unknown;
}

/** The answer for a relative TypeScript import of a file: module, else undefined (Node's resolver decides). */
export function ownSourceModule(specifier: string, parentURL: string | undefined): Resolved | undefined {
  if (parentURL === undefined || !parentURL.startsWith('file:') || !specifier.endsWith('.ts')) return undefined;
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return undefined;
  return { url: new URL(specifier, parentURL).href, format: 'module-typescript', shortCircuit: true };
}

export function resolveSourceImportsDirectly(): void {
  const api = module as unknown as HooksApi;
  if (typeof api.registerHooks !== 'function') return;
  api.registerHooks({
    resolve(specifier, context, next) {
      const own = ownSourceModule(specifier, context.parentURL);
      return own === undefined ? next(specifier, context) : own;
    },
  });
}
