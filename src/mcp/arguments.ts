// A tool's arguments checked against its input schema (tools.ts), the one description of them:
// required members present, types and enums as listed, no member the schema does not name (as
// Google's server, which parses arguments into its request message, refuses unknown fields).
// A refusal is a tool error (ToolError) naming the member, so an agent can correct its call
// (MCP specification 2025-11-25, "Tools", error handling: input validation is a tool execution
// error, not a protocol error).

import type { JsonSchema, ObjectSchema } from './tools.ts';

/** What a tool call answers as a result with `isError: true`; `detail` becomes its structuredContent. */
export class ToolError extends Error {
  readonly detail: object | undefined;
  constructor(message: string, detail?: object) {
    super(message);
    this.detail = detail;
  }
}

export type Arguments = Readonly<Record<string, unknown>>;

export function checkArguments(schema: ObjectSchema, value: unknown, path = 'arguments'): Arguments {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ToolError(`${path} must be an object.`);
  const args = value as Record<string, unknown>;
  for (const name of schema.required ?? []) {
    if (args[name] === undefined || args[name] === null) throw new ToolError(`${member(path, name)} is required.`);
  }
  for (const [name, given] of Object.entries(args)) {
    const spec = schema.properties[name];
    if (spec === undefined) throw new ToolError(`${member(path, name)} is not an argument of this tool.`);
    // null stands for "not set", as proto3 JSON reads it.
    if (given !== null) checkValue(spec, given, member(path, name));
  }
  return args;
}

function member(path: string, name: string): string {
  return path === 'arguments' ? name : `${path}.${name}`;
}

function checkValue(spec: JsonSchema, value: unknown, path: string): void {
  switch (spec.type) {
    case 'string':
      if (typeof value !== 'string') throw new ToolError(`${path} must be a string.`);
      if (spec.enum !== undefined && !spec.enum.includes(value)) throw new ToolError(`${path} must be one of ${spec.enum.join(', ')}.`);
      return;
    case 'integer':
      if (!Number.isSafeInteger(value)) throw new ToolError(`${path} must be an integer.`);
      return;
    case 'boolean':
      if (typeof value !== 'boolean') throw new ToolError(`${path} must be true or false.`);
      return;
    case 'array':
      if (!Array.isArray(value)) throw new ToolError(`${path} must be an array of strings.`);
      value.forEach((item, i) => checkValue({ ...spec.items, description: '' }, item, `${path}[${i}]`));
      return;
    case 'object':
      checkArguments(spec, value, path);
      return;
  }
}

/** Typed reads of checked arguments. */
export function stringArg(args: Arguments, name: string): string | undefined {
  const value = args[name];
  return typeof value === 'string' ? value : undefined;
}

export function integerArg(args: Arguments, name: string): number | undefined {
  const value = args[name];
  return typeof value === 'number' ? value : undefined;
}

export function booleanArg(args: Arguments, name: string): boolean | undefined {
  const value = args[name];
  return typeof value === 'boolean' ? value : undefined;
}

/**
 * A string member checked against the values Google's reference documents for it in prose (its
 * schema types it a plain string), as Google's server refuses any other.
 */
export function documentedValue(value: string | undefined, allowed: readonly string[], name: string): string | undefined {
  if (value !== undefined && !allowed.includes(value)) throw new ToolError(`${name} must be one of ${allowed.join(', ')}.`);
  return value;
}

export function stringsArg(args: Arguments, name: string): string[] {
  const value = args[name];
  return Array.isArray(value) ? (value as string[]) : [];
}
