import { z } from 'zod';

/** Every error that crosses the contract has one of these codes; the UI branches on code. */
export const ErrorCode = z.enum([
  'invalid_request',
  'unknown_command',
  'unauthorized',
  'not_found',
  'already_exists',
  'invalid_state',
  'agent_exited',
  'agent_error',
  'agent_unavailable',
  'permission_timeout',
  'permission_answered',
  'crash_loop',
  'shutting_down',
  'disconnected',
  'internal',
]);
export type ErrorCode = z.output<typeof ErrorCode>;

export class AppError extends Error {
  override readonly name = 'AppError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }

  toWire(): { code: ErrorCode; message: string; details?: unknown } {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }
}

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}

/** Turns anything thrown into a wire error; unknown errors become `internal`. */
export function toWireError(err: unknown): { code: ErrorCode; message: string; details?: unknown } {
  if (isAppError(err)) return err.toWire();
  const message = err instanceof Error ? err.message : String(err);
  return { code: 'internal', message };
}
