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
