import { ComponentError } from './errors.js';

/** Runs one start-up step, logs how long it took, and names the step in any error it throws. */
export async function step<T>(log: (line: string) => void, what: string, work: () => Promise<T>): Promise<T> {
  const start = Date.now();
  let result: T;
  try {
    result = await work();
  } catch (error) {
    if (error instanceof ComponentError) throw error;
    throw new ComponentError(what, error instanceof Error ? error.message : String(error));
  }
  log(`${what} ready in ${((Date.now() - start) / 1000).toFixed(1)}s`);
  return result;
}
