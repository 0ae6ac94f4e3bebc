// Logging: every log line goes to stderr (stdout carries only the "Listening on" line).

export interface Logger {
  info(message: string): void;
  error(message: string, error?: unknown): void;
}

export const stderrLogger: Logger = {
  info(message) {
    process.stderr.write(`${message}\n`);
  },
  error(message, error) {
    const detail = error instanceof Error ? (error.stack ?? error.message) : error === undefined ? '' : String(error);
    process.stderr.write(`${message}${detail ? `\n${detail}` : ''}\n`);
  },
};

export const silentLogger: Logger = { info() {}, error() {} };

/**
 * One --log-requests line (docs/cli.md): service-clock time, status, method, the path without its
 * query, operation, user and fault rule ids, milliseconds. Never a query value, header or body,
 * which may carry secrets; the raw path cannot break the line (a request line has no spaces or
 * line breaks).
 */
export function requestLine(req: { method: string; path: string; trace: { operation: string | null; userId: string | null; fault: string | null } }, status: number, durationMs: number, now: number): string {
  const { operation, userId, fault } = req.trace;
  return `${new Date(now).toISOString()} ${status} ${req.method} ${req.path} ${operation ?? '-'} ${userId ?? '-'} ${fault ?? '-'} ${durationMs.toFixed(1)}ms`;
}
