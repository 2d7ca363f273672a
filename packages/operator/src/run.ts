import type { OperatorConfig } from './config.js';

/** Runs the controllers until the process is told to stop. */
export function runOperator(_config: OperatorConfig): Promise<void> {
  throw new Error('not implemented yet');
}
