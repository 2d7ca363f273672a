/** A component of the environment failed to start or stopped answering. Carries its last log lines. */
export class ComponentError extends Error {
  constructor(
    readonly component: string,
    problem: string,
    readonly logTail = '',
  ) {
    super(`${component}: ${problem}${logTail ? `\n--- last lines of the ${component} log ---\n${logTail}` : ''}`);
    this.name = 'ComponentError';
  }
}
