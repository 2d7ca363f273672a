// What a crashed or failed Keystone process logged, reduced to what says why.

/** Terminal colour and cursor sequences (CSI), which oslo.log's colour formatter writes. */
// eslint-disable-next-line no-control-regex -- the escape character is what is matched
const ANSI_SEQUENCE = /\u001b\[[0-9;?]*[A-Za-z]/g;
/** An oslo.log record's start: date, time, pid. */
const LOG_RECORD = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)? +\d+ +/;
/** An ERROR or CRITICAL record that says something after its logger's name. */
const ERROR_RECORD = /^(?:ERROR|CRITICAL) \S+ +\S/;

const TRACEBACK = 'Traceback (most recent call last):';

/**
 * The lines of a failed run's log that say what went wrong, without colour, in the log's order: oslo.log's
 * ERROR and CRITICAL records (the traceback included) without their date and pid, and the exception that ends
 * each plain Python traceback (as uWSGI prints one for an application that failed to load). A log with neither
 * is kept whole. What Python prints while shutting down ("Exception ignored in ...", with its own traceback) is
 * left out.
 */
export function failureLines(log: string): string[] {
  const lines = log.replace(ANSI_SEQUENCE, '').split(/\r?\n/).map((line) => line.trimEnd()).filter((line) => line.trim() !== '');
  const meaningful: string[] = [];
  let shutdownNoise = false;
  for (const line of lines) {
    if (line.startsWith('Exception ignored')) shutdownNoise = true;
    else if (LOG_RECORD.test(line)) shutdownNoise = false;
    if (!shutdownNoise) meaningful.push(line);
  }
  const kept: string[] = [];
  let inTraceback = false;
  for (const line of meaningful) {
    const record = line.replace(LOG_RECORD, '');
    if (record !== line) {
      if (ERROR_RECORD.test(record)) kept.push(record);
    } else if (line === TRACEBACK) inTraceback = true;
    else if (inTraceback && !/^\s/.test(line)) {
      // The first line after the frames: the exception.
      kept.push(line);
      inTraceback = false;
    }
  }
  return kept.length > 0 ? kept : meaningful;
}
