import type { PlanConfig } from './config.js';

/** Prints what the controllers would do; resolves to the exit status (EXIT_CODES in cli.ts). */
export function planCommand(_config: PlanConfig): Promise<number> {
  throw new Error('not implemented yet');
}
