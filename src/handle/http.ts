// The handle's one way to speak to the service: fetch with a deadline, an unreachable service
// turned into a sentence that names the URL, and a failed answer turned into a ServiceError that
// keeps the status and the service's error body (README "Testing your app").

/** An answer the service gave that was not the one asked for. */
export class ServiceError extends Error {
  /** The HTTP status of the answer. */
  readonly status: number;
  /** The answer's body, parsed when it is JSON (`{"error":…,"error_description":…}` or Google's envelope), else its text. */
  readonly body: unknown;

  constructor(message: string, status: number, body: unknown) {
    super(message);
    this.name = 'ServiceError';
    this.status = status;
    this.body = body;
  }
}

/** The service could not be reached, or answered in a way the flow cannot read. */
export class FlowError extends Error {}

export interface Answer {
  status: number;
  text: string;
  location: string | null;
}

// Generous: a fixture of 100k events loads and exports in seconds, not milliseconds.
const TIMEOUT_MS = 60_000;

export async function send(url: string, init: RequestInit): Promise<Answer> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new FlowError(`cannot reach the service at ${new URL(url).origin}: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
  }
  return { status: response.status, text: await response.text(), location: response.headers.get('location') };
}

/** The error for an answer that is not the expected one; `step` is `METHOD /path` for the message. */
export function serviceError(step: string, answer: Answer): ServiceError {
  let body: unknown = answer.text;
  let detail = `HTTP ${answer.status}`;
  try {
    body = JSON.parse(answer.text);
    detail = describe(body) ?? detail;
  } catch {
    // not JSON (a consent page error is HTML): the status says enough, the text stays in body
  }
  return new ServiceError(`${step} failed: ${detail}`, answer.status, body);
}

// The two error bodies the service writes: OAuth's and the management API's {error, error_description},
// and Google's envelope {error: {code, message, errors}} for the Calendar API.
function describe(body: unknown): string | undefined {
  const error = (body as { error?: unknown } | null)?.error;
  if (typeof error === 'string') return `${error}: ${String((body as { error_description?: unknown }).error_description ?? '')}`;
  const envelope = error as { message?: unknown; errors?: Array<{ reason?: unknown }> } | null | undefined;
  if (typeof envelope?.message !== 'string') return undefined;
  const reason = envelope.errors?.[0]?.reason;
  return typeof reason === 'string' ? `${reason}: ${envelope.message}` : envelope.message;
}

/** Calls a management path and returns its parsed JSON (undefined for an empty answer), or throws a ServiceError. */
export async function callJson(baseUrl: string, method: string, path: string, body?: unknown, expected: readonly number[] = [200, 201, 204]): Promise<unknown> {
  const init: RequestInit = body === undefined ? { method } : { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
  const answer = await send(baseUrl + path, init);
  if (!expected.includes(answer.status)) throw serviceError(`${method} ${path.split('?')[0]}`, answer);
  return answer.text === '' ? undefined : JSON.parse(answer.text);
}
