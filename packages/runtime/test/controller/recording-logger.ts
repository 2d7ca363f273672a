import type { RuntimeLogger } from '../../src/controller/controller.js';

type Level = 'debug' | 'info' | 'warn' | 'error';

/** A logger that keeps the lines of the given levels, in order, as "level: message". */
export function recordingLogger(lines: string[], levels: readonly Level[] = ['info', 'error']): RuntimeLogger {
  const at = (level: Level) => (message: string): void => {
    if (levels.includes(level)) lines.push(`${level}: ${message}`);
  };
  const logger: RuntimeLogger = { child: () => logger, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  return logger;
}
