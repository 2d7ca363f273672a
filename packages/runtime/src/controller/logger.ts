import { createLogger as createWinstonLogger, format, transports, type Logger, type Logform } from 'winston';
import { KeywardError } from '@keyward/kernel/interpreter';
import { SENSITIVE_MASK, isSensitive } from '@keyward/kernel/model';

export type { Logger } from 'winston';

export type LogLevel = 'error' | 'warn' | 'info' | 'debug';

export interface LoggerOptions {
  /** Least severe level written; `info` by default. `debug` also writes error stacks. */
  readonly level?: LogLevel;
  /** `json` (default): one JSON object a line, for log collectors. `text`: one readable line, for terminals. */
  readonly format?: 'json' | 'text';
  /** Where lines go; stderr by default. */
  readonly stream?: NodeJS.WritableStream;
}

/**
 * A winston logger writing records of `time`, `level`, `msg` and the caller's metadata (callers add context
 * with `logger.child({ controller, key, reconcileId })`). Metadata is normalised before it is written, so a
 * Sensitive value prints as ***, wherever it is nested, and errors print their message (plus reason and code
 * for KeywardErrors, and the stack only at debug level).
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? 'info';
  const stacks = level === 'debug';
  const render = options.format === 'text' ? renderText : renderJson;
  const write = format((info) => {
    info[MESSAGE] = render(toRecord(info, stacks));
    return info;
  });
  return createWinstonLogger({
    level,
    format: write(),
    transports: [new transports.Stream({ stream: options.stream ?? process.stderr })],
  });
}

/** triple-beam's keys (shared through the symbol registry): what transports write, and the log call's extra arguments. */
const MESSAGE = Symbol.for('message');
const SPLAT = Symbol.for('splat');

/** Record fields that metadata could otherwise overwrite; such metadata is renamed rather than lost (winston itself sets `level`). */
const RESERVED = new Set(['time', 'msg']);
/** Deeper metadata is summarised: logs are not a serialisation format. */
const MAX_DEPTH = 6;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface LogRecord {
  readonly time: string;
  readonly level: string;
  readonly msg: string;
  readonly fields: readonly (readonly [string, Json])[];
}

function toRecord(info: Logform.TransformableInfo, stacks: boolean): LogRecord {
  let msg = messageText(info.message, stacks);
  const fields: [string, Json][] = [];
  let skip = new Set(['level', 'message', 'stack']);

  // logger.error('failed', error): winston copies the error's enumerable fields, stack and cause into the
  // record and appends its message to msg. Record it as logger.error('failed', { error }) instead, so both
  // calls log the same, and enumerable fields of foreign errors (an HTTP client's request config) stay out.
  const splat = info[SPLAT];
  const metaError = Array.isArray(splat) && splat[0] instanceof Error ? splat[0] : undefined;
  if (metaError !== undefined) {
    skip = new Set([...skip, 'cause', ...Object.keys(metaError)]);
    if (metaError.message !== '' && msg.endsWith(` ${metaError.message}`)) msg = msg.slice(0, -metaError.message.length - 1);
    fields.push(['error', normalize(metaError, stacks)]);
  }
  for (const [key, value] of Object.entries(info)) {
    if (skip.has(key) || value === undefined) continue;
    fields.push([RESERVED.has(key) ? `meta.${key}` : key, normalize(value, stacks)]);
  }
  if (stacks && metaError === undefined && typeof info['stack'] === 'string') fields.push(['stack', info['stack']]);
  return { time: new Date().toISOString(), level: info.level, msg, fields };
}

function messageText(message: unknown, stacks: boolean): string {
  if (message === undefined) return '';
  const value = normalize(message, stacks);
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Plain JSON for any value, with secrets masked, errors summarised and cycles cut. */
function normalize(value: unknown, stacks: boolean, depth = 0, path: object[] = []): Json {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : String(value);
    case 'bigint':
    case 'symbol':
      return value.toString();
    case 'function':
      return '[function]';
  }
  if (typeof value !== 'object' || value === null) return null;
  // Before anything else: a Sensitive must never be walked into.
  if (isSensitive(value)) return SENSITIVE_MASK;
  if (path.includes(value)) return '[circular]';
  if (depth >= MAX_DEPTH) return '[object]';
  const inner = (child: unknown): Json => normalize(child, stacks, depth + 1, [...path, value]);

  if (value instanceof Error) return errorFields(value, stacks, inner);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
  if (Array.isArray(value)) return value.map(inner);
  if (value instanceof Map) return inner(Object.fromEntries(value));
  if (value instanceof Set) return inner([...value]);
  if (hasToJSON(value)) return inner(value.toJSON());
  const result: Record<string, Json> = {};
  for (const [key, child] of Object.entries(value)) if (child !== undefined) result[key] = inner(child);
  return result;
}

function hasToJSON(value: object): value is { toJSON: () => unknown } {
  return typeof (value as { toJSON?: unknown }).toJSON === 'function';
}

/** Message, name and codes of an error, and its cause; never its other fields, which may hold request data. */
function errorFields(error: Error, stacks: boolean, inner: (value: unknown) => Json): Json {
  const fields: Record<string, Json> = { message: error.message };
  if (error.name !== 'Error') fields['name'] = error.name;
  if (error instanceof KeywardError) {
    fields['api'] = error.api;
    fields['reason'] = error.reason;
    fields['code'] = error.code;
  } else {
    // Node's system errors: ECONNREFUSED, ETIMEDOUT, ...
    const code: unknown = (error as { code?: unknown }).code;
    if (typeof code === 'string' || typeof code === 'number') fields['code'] = code;
  }
  if (error.cause !== undefined) fields['cause'] = inner(error.cause);
  if (stacks && error.stack !== undefined) fields['stack'] = error.stack;
  return fields;
}

function renderJson(record: LogRecord): string {
  return JSON.stringify({ time: record.time, level: record.level, msg: record.msg, ...Object.fromEntries(record.fields) });
}

/** `2026-01-01T00:00:00.000Z INFO  reconciled controller=appcred key=team-a/db error={"message":"..."}` */
function renderText(record: LogRecord): string {
  const fields = record.fields.map(([key, value]) => ` ${key}=${textValue(value)}`).join('');
  return `${record.time} ${record.level.toUpperCase().padEnd(5)} ${singleLine(record.msg)}${fields}`;
}

function textValue(value: Json): string {
  if (typeof value === 'string' && /^[^\s"=\p{Cc}]+$/u.test(value)) return value;
  return JSON.stringify(value);
}

/** Escapes line breaks and other control characters, which would split or garble a record. */
function singleLine(text: string): string {
  return /\p{Cc}/u.test(text) ? JSON.stringify(text).slice(1, -1) : text;
}
