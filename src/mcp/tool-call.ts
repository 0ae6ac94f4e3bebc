// tools/call, in the order the calendar surface checks a request: the tool by name (an unknown
// one is a JSON-RPC invalid-params error, as the MCP specification's example gives it), the
// usage limits (docs/usage-limits.md: each call counts once, as `mcp.<tool>`), the token's scopes, the
// arguments against the tool's schema, then the fault rules (docs/faults.md,
// `match.method: "mcp.<tool>"`), then the tool. Whatever the caller can correct (a scope, an
// argument, an unknown calendar or event, a Calendar API refusal) is a tool result with
// `isError: true`, so an agent reads why; a faulted call, or one over a usage limit, answers the
// same way, its result carrying Google's error envelope as structuredContent.

import { googleErrorBody } from '../api/google-error.ts';
import { scopeAllows } from '../calendar/scopes.ts';
import { faulted } from '../faults/intercept.ts';
import type { FaultRules } from '../faults/rules.ts';
import { json } from '../http/result.ts';
import type { ApiRequest } from '../http/request.ts';
import type { Result } from '../http/result.ts';
import { SCOPE_PREFIX } from '../oauth/scopes.ts';
import type { ToolContext } from './api-call.ts';
import { checkArguments, stringArg, ToolError } from './arguments.ts';
import { EVENT_TOOLS } from './event-tools.ts';
import type { ToolHandler } from './event-tools.ts';
import { resultMessage, RPC, RpcError } from './protocol.ts';
import type { RpcId } from './protocol.ts';
import { suggestTime } from './suggest-time.ts';
import { toolNamed } from './tools.ts';
import type { Usage } from '../usage/usage.ts';

const HANDLERS: Readonly<Record<string, ToolHandler>> = { ...EVENT_TOOLS, suggest_time: suggestTime };

export interface ToolResult {
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: object;
  isError?: true;
}

function success(value: object): ToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
}

function failure(message: string, detail?: object): ToolResult {
  return { content: [{ type: 'text', text: message }], ...(detail === undefined ? {} : { structuredContent: detail }), isError: true };
}

export async function callTool(ctx: ToolContext, faults: FaultRules, usage: Usage, req: ApiRequest, id: RpcId, params: Record<string, unknown>): Promise<Result> {
  const name = params.name;
  if (typeof name !== 'string') throw new RpcError(RPC.invalidParams, 'Invalid params: name must be the name of a tool.', { id });
  const tool = toolNamed(name);
  if (tool === undefined) throw new RpcError(RPC.invalidParams, `Unknown tool: ${name}`, { id });
  req.trace.operation = `mcp.${tool.name}`;
  const answer = (result: ToolResult): Result => json(200, resultMessage(id, result));
  // One count of `mcp.<tool>` per tools/call, as Google counts a call of its MCP server.
  const overLimit = usage.admit({ operation: req.trace.operation, clientId: ctx.auth.connection.clientId, userId: ctx.auth.user.id });
  if (overLimit !== undefined) return answer(googleFailure(googleErrorBody(overLimit) as GoogleEnvelope));
  if (!tool.methods.every((method) => scopeAllows(ctx.auth.scopes, method))) {
    return answer(failure(`Request had insufficient authentication scopes: ${tool.name} needs the scope ${SCOPE_PREFIX}${tool.scope} or a broader one.`));
  }
  let args;
  try {
    args = checkArguments(tool.inputSchema, params.arguments ?? {});
  } catch (error) {
    if (error instanceof ToolError) return answer(failure(`Invalid arguments: ${error.message}`));
    throw error;
  }
  const run = async (): Promise<Result> => {
    try {
      return answer(success(await (HANDLERS[tool.name] as ToolHandler)(ctx, args)));
    } catch (error) {
      if (error instanceof ToolError) return answer(failure(error.message, error.detail));
      throw error;
    }
  };
  const called = { ran: false };
  const details = { calendarId: stringArg(args, 'calendarId') ?? 'primary', primaryCalendarId: ctx.auth.user.email };
  const result = await faulted(faults, req, details, () => {
    called.ran = true;
    return run();
  });
  if (called.ran) return result;
  // A fault rule answered in the tool's place with Google's HTTP error: the same error as a tool result.
  return answer(googleFailure(JSON.parse(String(result.body)) as GoogleEnvelope));
}

interface GoogleEnvelope {
  error: { code: number; message: string; errors: Array<{ reason: string }> };
}

/** Google's HTTP error as a tool result: its reason and message, the envelope as structuredContent. */
function googleFailure(envelope: GoogleEnvelope): ToolResult {
  return failure(`${envelope.error.errors[0]?.reason ?? 'error'}: ${envelope.error.message}`, envelope);
}
