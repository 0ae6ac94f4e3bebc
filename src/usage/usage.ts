// Usage limits as Google enforces them, and the usage report (docs/usage-limits.md). Google limits the
// Calendar API "per minute per project" (10,000 requests) and "per minute per user per project"
// (600), over a sliding window, and answers a request over either with "a 403 usageLimits status
// code or a 429 usageLimits status code"
// (https://developers.google.com/workspace/calendar/api/guides/quota). Here a project is an
// OAuth client, and every Calendar API request and MCP tools/call made with one of its tokens
// counts, on the service clock. Off by default (--quotas); the report is kept either way.
//
// Choices where Google's documentation leaves it open:
// - The per-user limit answers 403 usageLimits/userRateLimitExceeded, the reason Google's error
//   guide gives for a per-user limit; the per-project limit answers 429
//   usageLimits/rateLimitExceeded, the status Google's quota service gives for a project's
//   per-minute limit. Both messages are the ones Google's quota service words for those limits,
//   as developers report them ("Quota exceeded for quota metric 'Queries' and limit 'Queries per
//   minute per user' of service 'calendar-json.googleapis.com' for consumer
//   'project_number:…'", https://github.com/Atrejoe/Inky-Calendar-Server/issues/104; "… limit
//   'Queries per minute' …", https://github.com/calcom/cal.diy/issues/18079), with the client
//   id in place of the project number. The project limit is checked first.
// - A refused request does not count in the windows (a client that backs off gets room when
//   the minute has passed), but counts in the report, which is what the apps sent.
// - No Retry-After header: Google's answers to these limits carry none.

import type { GoogleErrorDetail } from '../api/google-error.ts';
import type { Clock } from '../domain/clock.ts';
import { MinuteWindows } from './minute-windows.ts';

/** Requests a minute per project, and per user per project (Google's numbers: src/config/config.ts). */
export interface UsageLimits {
  projectPerMinute: number;
  userPerMinute: number;
}

/** What one counted request names: its operation (`calendar.events.list`, `mcp.list_events`) and identity. */
export interface UsageSubject {
  operation: string;
  clientId: string;
  userId: string;
}

export interface UsageReport {
  /** RFC 3339, the service clock at the last reset or fixture load (or the start). */
  since: string;
  byMethod: Record<string, number>;
  byClient: Record<string, number>;
  byUser: Record<string, number>;
  /** The most requests let through in one minute, for one project and for one user of one. */
  peakPerMinute: { project: number; user: number };
}

function quotaMessage(limit: string, clientId: string): string {
  return `Quota exceeded for quota metric 'Queries' and limit '${limit}' of service 'calendar-json.googleapis.com' for consumer 'project_number:${clientId}'.`;
}

function bump(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

export class Usage {
  readonly #clock: Clock;
  readonly #limits: UsageLimits | undefined;
  readonly #projects = new MinuteWindows();
  readonly #users = new MinuteWindows();
  // Keyed by operation (a fixed set), client and user ids: bounded by the workspace, which
  // reset and fixture load replace, clearing these too.
  readonly #byMethod = new Map<string, number>();
  readonly #byClient = new Map<string, number>();
  readonly #byUser = new Map<string, number>();
  #peakProject = 0;
  #peakUser = 0;
  #since: number;

  /** `limits`: enforce them; undefined counts for the report only. */
  constructor(clock: Clock, limits: UsageLimits | undefined) {
    this.#clock = clock;
    this.#limits = limits;
    this.#since = clock.now();
  }

  /**
   * Counts one request; answers Google's refusal when it is over a limit (it must not run), or
   * undefined when it may run.
   */
  admit(subject: UsageSubject): GoogleErrorDetail | undefined {
    bump(this.#byMethod, subject.operation);
    bump(this.#byClient, subject.clientId);
    bump(this.#byUser, subject.userId);
    const second = Math.floor(this.#clock.now() / 1000);
    const userKey = `${subject.clientId}\n${subject.userId}`;
    const limits = this.#limits;
    if (limits !== undefined) {
      if (this.#projects.count(subject.clientId, second) >= limits.projectPerMinute) {
        return { status: 429, domain: 'usageLimits', reason: 'rateLimitExceeded', message: quotaMessage('Queries per minute', subject.clientId) };
      }
      if (this.#users.count(userKey, second) >= limits.userPerMinute) {
        return { status: 403, domain: 'usageLimits', reason: 'userRateLimitExceeded', message: quotaMessage('Queries per minute per user', subject.clientId) };
      }
    }
    this.#peakProject = Math.max(this.#peakProject, this.#projects.add(subject.clientId, second));
    this.#peakUser = Math.max(this.#peakUser, this.#users.add(userKey, second));
    return undefined;
  }

  /** GET /__svc/usage. */
  report(): UsageReport {
    return {
      since: new Date(this.#since).toISOString(),
      byMethod: Object.fromEntries(this.#byMethod),
      byClient: Object.fromEntries(this.#byClient),
      byUser: Object.fromEntries(this.#byUser),
      peakPerMinute: { project: this.#peakProject, user: this.#peakUser },
    };
  }

  /** Reset and fixture load: the windows and the report start again. */
  clear(): void {
    this.#projects.clear();
    this.#users.clear();
    this.#byMethod.clear();
    this.#byClient.clear();
    this.#byUser.clear();
    this.#peakProject = 0;
    this.#peakUser = 0;
    this.#since = this.#clock.now();
  }
}
