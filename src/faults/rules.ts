// The fault rules in force (docs/faults.md) and the one question every hook asks them: does a rule
// act on this request? Rules live in memory, per running service; reset and fixture load delete
// them all (the composition root wires that to App.onWorkspaceReplaced).
//
// Matching: the rules naming the request's method are tried first, then those naming `*`, each
// in the order added. A rule matches when each narrowing member it has equals what the request
// states. The first matching rule that still has requests to act on decides the request; a rule
// still letting requests through (`afterMatches`) counts the match and the search goes on. A
// used-up rule matches nothing more and stays listed with remaining 0 until deleted.
//
// Rules are kept per method, so a request pays for the rules that name its method (and `*`),
// not for every rule: a hundred rules on other methods cost two map lookups.
//
// Bounded (docs/faults.md, SECURITY.md): at most MAX_FAULT_RULES at once, each from a body of at most
// MAX_FAULT_RULE_BYTES (the management route checks that before parsing it); a rule over
// either is refused and the rules held stay as they were.

import { ANY_METHOD, PUSH_DELIVERY } from './catalogue.ts';
import { parseFaultRule } from './rule.ts';
import type { FaultMatch, FaultRuleSpec } from './rule.ts';

/** What a request states that rules can narrow by; each hook fills in what its requests have. */
export interface FaultSubject {
  /** Google's method id (`calendar.events.list`), `oauth.token` and its kin, or `push.delivery`. */
  operation: string;
  userId: string | null;
  clientId: string | null;
  /** The calendar id as the request names it (`primary` included). */
  calendarId?: string | undefined;
  /** The user's primary calendar id (their e-mail), which `primary` stands for. */
  primaryCalendarId?: string | undefined;
  syncToken?: boolean;
  grantType?: string | undefined;
  channelId?: string;
}

/** A stored rule as the management API shows it. */
export interface FaultRuleView extends FaultRuleSpec {
  id: string;
  /** Requests the rule will still act on; null when unlimited (times 0). */
  remaining: number | null;
  /** Matching requests the rule acted on (not those afterMatches let through). */
  hits: number;
}

interface StoredRule {
  readonly id: string;
  readonly spec: FaultRuleSpec;
  passed: number;
  hits: number;
}

/** The rule that acts on a request: its id, and its error and delay. */
export interface FaultDecision {
  readonly ruleId: string;
  readonly spec: FaultRuleSpec;
}

const PRIMARY_ALIAS = 'primary';

export const MAX_FAULT_RULES = 1_000;
export const MAX_FAULT_RULE_BYTES = 16 * 1024;

/** A rule refused because MAX_FAULT_RULES are held; the management API answers it 429. */
export class TooManyFaultRulesError extends Error {}

export class FaultRules {
  readonly #calendarMethods: readonly string[];
  /** Every rule, in the order added. */
  #rules: StoredRule[] = [];
  /** The same rules by match.method. */
  #byMethod = new Map<string, StoredRule[]>();
  #nextId = 1;
  /** Delays in progress, each ended early by endDelays(). */
  readonly #delays = new Set<() => void>();
  #delaysEnded = false;

  /** `calendarMethods`: the Google method ids of the calendar route table, which rules may name. */
  constructor(calendarMethods: readonly string[] = []) {
    this.#calendarMethods = calendarMethods;
  }

  /**
   * Validates and stores a rule (FaultRuleError when invalid, TooManyFaultRulesError when the
   * rules held are at the cap); returns it as stored.
   */
  add(body: unknown): FaultRuleView {
    if (this.#rules.length >= MAX_FAULT_RULES) {
      throw new TooManyFaultRulesError(`At most ${MAX_FAULT_RULES} fault rules are held at once; delete some (DELETE /__svc/faults/{id}) before adding more.`);
    }
    const spec = parseFaultRule(body, this.#calendarMethods);
    const rule: StoredRule = { id: `fault-${this.#nextId++}`, spec, passed: 0, hits: 0 };
    this.#rules.push(rule);
    const same = this.#byMethod.get(spec.match.method);
    if (same) same.push(rule);
    else this.#byMethod.set(spec.match.method, [rule]);
    return view(rule);
  }

  list(): FaultRuleView[] {
    return this.#rules.map(view);
  }

  /** False when no rule has that id. */
  delete(id: string): boolean {
    const before = this.#rules.length;
    this.#rules = this.#rules.filter((rule) => rule.id !== id);
    for (const [method, rules] of this.#byMethod) {
      const kept = rules.filter((rule) => rule.id !== id);
      if (kept.length === 0) this.#byMethod.delete(method);
      else this.#byMethod.set(method, kept);
    }
    return this.#rules.length < before;
  }

  clear(): void {
    this.#rules = [];
    this.#byMethod.clear();
  }

  /**
   * Waits real milliseconds: a fault's delay is about the wire, never the service clock. The
   * wait ends early when the service stops (endDelays), so a 30 s rule cannot hold up close().
   */
  delay(ms: number): Promise<void> {
    if (this.#delaysEnded) return Promise.resolve();
    return new Promise((resolve) => {
      const end = () => {
        clearTimeout(timer);
        this.#delays.delete(end);
        resolve();
      };
      const timer = setTimeout(end, ms);
      this.#delays.add(end);
    });
  }

  /** The service is stopping: every delayed answer goes out now, and later ones wait no more. */
  endDelays(): void {
    this.#delaysEnded = true;
    for (const end of [...this.#delays]) end();
  }

  /** Whether any rule names `operation` (a cheap check before building a costly subject). */
  names(operation: string): boolean {
    return this.#byMethod.has(operation) || (operation !== PUSH_DELIVERY && this.#byMethod.has(ANY_METHOD));
  }

  /** The rule that acts on the request, counting it; undefined lets the request run as usual. */
  decide(subject: FaultSubject): FaultDecision | undefined {
    if (this.#rules.length === 0) return undefined;
    return this.#decideAmong(this.#byMethod.get(subject.operation), subject) ?? (subject.operation === PUSH_DELIVERY ? undefined : this.#decideAmong(this.#byMethod.get(ANY_METHOD), subject));
  }

  #decideAmong(rules: readonly StoredRule[] | undefined, subject: FaultSubject): FaultDecision | undefined {
    if (rules === undefined) return undefined;
    // `primary` means the requesting user's primary calendar, on either side (https://developers.google.com/workspace/calendar/api/v3/reference/calendars/get):
    // the request's calendar is resolved once here, each rule's in matches().
    const calendarId = subject.calendarId === PRIMARY_ALIAS ? subject.primaryCalendarId : subject.calendarId;
    for (const rule of rules) {
      if (isUsedUp(rule) || !matches(rule.spec.match, subject, calendarId)) continue;
      if (rule.passed < rule.spec.afterMatches) {
        rule.passed++;
        continue;
      }
      rule.hits++;
      return { ruleId: rule.id, spec: rule.spec };
    }
    return undefined;
  }
}

function isUsedUp(rule: StoredRule): boolean {
  return rule.spec.times !== 0 && rule.hits >= rule.spec.times;
}

function matches(match: FaultMatch, subject: FaultSubject, calendarId: string | undefined): boolean {
  if (match.userId !== undefined && match.userId !== subject.userId) return false;
  if (match.clientId !== undefined && match.clientId !== subject.clientId) return false;
  if (match.syncToken !== undefined && match.syncToken !== (subject.syncToken ?? false)) return false;
  if (match.grantType !== undefined && match.grantType !== subject.grantType) return false;
  if (match.channelId !== undefined && match.channelId !== subject.channelId) return false;
  if (match.calendarId !== undefined) {
    const wanted = match.calendarId === PRIMARY_ALIAS ? subject.primaryCalendarId : match.calendarId;
    if (wanted === undefined || wanted !== calendarId) return false;
  }
  return true;
}

function view(rule: StoredRule): FaultRuleView {
  const { times } = rule.spec;
  return { id: rule.id, ...rule.spec, remaining: times === 0 ? null : times - rule.hits, hits: rule.hits };
}
