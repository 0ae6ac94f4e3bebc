// Fault rules from a test (docs/faults.md): add, list and clear them over /__svc/faults.

import { call, postJson } from '../_helpers/service.ts';
import type { Answer } from '../_helpers/service.ts';

/** Adds a rule and returns it as stored; fails the test when the service refuses it. */
export async function addFault(url: string, rule: object): Promise<{ id: string; remaining: number | null; hits: number }> {
  const answer = await postJson(`${url}/__svc/faults`, rule);
  if (answer.status !== 201) throw new Error(`POST /__svc/faults answered ${answer.status}: ${answer.text}`);
  return answer.json;
}

export function postFault(url: string, rule: unknown): Promise<Answer> {
  return postJson(`${url}/__svc/faults`, rule);
}

export async function listFaults(url: string): Promise<Array<{ id: string; remaining: number | null; hits: number }>> {
  return (await call(`${url}/__svc/faults`)).json.faults;
}

export async function clearFaults(url: string): Promise<void> {
  const answer = await call(`${url}/__svc/faults`, { method: 'DELETE' });
  if (answer.status !== 204) throw new Error(`DELETE /__svc/faults answered ${answer.status}`);
}
