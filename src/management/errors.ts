// The one error type of the management API (docs/management-api.md): a code and its status, rendered in the
// OAuth shape `{"error": code, "error_description": text}` by renderManagementError alone.

import { json } from '../http/result.ts';
import type { Result } from '../http/result.ts';

type ManagementCode =
  | 'not_found'
  | 'invalid_fixture'
  | 'invalid_fault'
  | 'too_many_faults'
  | 'invalid_request'
  | 'forbidden'
  | 'unsupported_media_type'
  | 'payload_too_large'
  | 'uri_too_long'
  | 'server_error'
  | 'conflict'
  | 'too_many_workspaces'
  | 'too_many_checkpoints';

export class ManagementError extends Error {
  readonly status: number;
  readonly code: ManagementCode;
  constructor(status: number, code: ManagementCode, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export function renderManagementError(error: ManagementError): Result {
  return json(error.status, { error: error.code, error_description: error.message });
}
