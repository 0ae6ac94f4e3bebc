// Starting the service in-process for a test file, and small HTTP helpers.

import type { TestContext } from 'node:test';
import { start } from '../../src/index.ts';
import type { StartOptions } from '../../src/index.ts';

export async function startService(t: { after(fn: () => unknown): void } | TestContext, options: StartOptions = {}): Promise<string> {
  const service = await start({ port: 0, ...options });
  t.after(() => service.close());
  return service.url;
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

export async function call(url: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(url, { redirect: 'manual', ...init });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

export function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  return call(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}
