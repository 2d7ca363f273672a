import { describe, expect, it } from '@jest/globals';
import { Writable } from 'node:stream';
import { KeywardError } from '@keyward/kernel/interpreter';
import { sensitive } from '@keyward/kernel';
import { createLogger, type Logger, type LoggerOptions } from '../../src/controller/logger.js';

const SECRET = 'hunter2-very-secret';

/** A logger writing into memory; `lines(n)` waits until n lines have arrived (winston writes through streams). */
function capture(options: Omit<LoggerOptions, 'stream'> = {}): { logger: Logger; lines: (count: number) => Promise<string[]> } {
  let text = '';
  let wake = (): void => undefined;
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString('utf8');
      wake();
      done();
    },
  });
  const logger = createLogger({ ...options, stream });
  const lines = async (count: number): Promise<string[]> => {
    for (;;) {
      const all = text.split('\n').filter((line) => line !== '');
      if (all.length >= count) return all;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  };
  return { logger, lines };
}

async function jsonLines(options: Omit<LoggerOptions, 'stream'>, log: (logger: Logger) => void, count = 1): Promise<Record<string, unknown>[]> {
  const { logger, lines } = capture({ ...options, format: 'json' });
  log(logger);
  return (await lines(count)).map((line) => JSON.parse(line) as Record<string, unknown>);
}

async function textLines(options: Omit<LoggerOptions, 'stream'>, log: (logger: Logger) => void, count = 1): Promise<string[]> {
  const { logger, lines } = capture({ ...options, format: 'text' });
  log(logger);
  return lines(count);
}

function keywardConflict(): KeywardError {
  return new KeywardError({ api: 'kubernetes', code: 409, reason: 'Conflict', message: 'update Lease ns/x: Conflict', retryable: true });
}

describe('createLogger, json', () => {
  it('writes time, level, msg and the child metadata as one JSON object a line', async () => {
    const [line] = await jsonLines({}, (logger) => {
      logger.child({ controller: 'appcred', key: 'team-a/db', reconcileId: 'r-1' }).info('reconciled', { actions: 3 });
    });
    expect(line).toEqual({ time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/), level: 'info', msg: 'reconciled', controller: 'appcred', key: 'team-a/db', reconcileId: 'r-1', actions: 3 });
  });

  it('writes from the configured level up, info by default', async () => {
    const lines = await jsonLines({}, (logger) => {
      logger.debug('hidden');
      logger.info('shown');
      logger.error('also shown');
    }, 2);
    expect(lines.map((line) => line['msg'])).toEqual(['shown', 'also shown']);

    const debug = await jsonLines({ level: 'debug' }, (logger) => {
      logger.debug('now shown');
    });
    expect(debug[0]).toMatchObject({ level: 'debug', msg: 'now shown' });

    const quiet = await jsonLines({ level: 'warn' }, (logger) => {
      logger.info('hidden');
      logger.warn('warned');
    });
    expect(quiet.map((line) => line['msg'])).toEqual(['warned']);
  });

  it('masks Sensitive values at the top, nested, in arrays, in error messages and in error causes', async () => {
    const [line] = await jsonLines({}, (logger) => {
      logger.child({ token: sensitive(SECRET) }).warn('login', {
        password: sensitive(SECRET),
        request: { auth: { identity: { password: { user: { password: sensitive(SECRET) } } } } },
        list: [sensitive(SECRET)],
        error: new Error(`rejected ${sensitive(SECRET).toString()}`, { cause: { password: sensitive(SECRET) } }),
      });
    });
    const text = JSON.stringify(line);
    expect(text).not.toContain(SECRET);
    expect(line).toMatchObject({
      token: '***',
      password: '***',
      request: { auth: { identity: { password: { user: { password: '***' } } } } },
      list: ['***'],
      error: { message: 'rejected ***', cause: { password: '***' } },
    });
  });

  it('logs an error as its message, reason and code, without the stack at info level', async () => {
    const [line] = await jsonLines({}, (logger) => {
      logger.error('reconcile failed', { error: keywardConflict() });
    });
    expect(line).toMatchObject({ msg: 'reconcile failed', error: { name: 'KeywardError', message: 'update Lease ns/x: Conflict', api: 'kubernetes', reason: 'Conflict', code: 409 } });
    expect(JSON.stringify(line)).not.toContain('at ');
  });

  it("records an error passed as winston's meta argument like one passed as { error }", async () => {
    const direct = new KeywardError({ api: 'keystone', code: 401, reason: 'Unauthorized', message: `password ${sensitive(SECRET).toString()} refused`, retryable: false });
    const foreign = Object.assign(new Error('request failed'), { config: { headers: { authorization: 'Bearer abc' } } });
    const [keyward, other] = await jsonLines({}, (logger) => {
      logger.child({ controller: 'appcred' }).error('authentication failed', direct);
      logger.warn('call failed', foreign);
    }, 2);
    expect(keyward).toEqual({
      time: expect.any(String),
      level: 'error',
      msg: 'authentication failed',
      controller: 'appcred',
      error: { name: 'KeywardError', message: 'password *** refused', api: 'keystone', reason: 'Unauthorized', code: 401 },
    });
    expect(other).toEqual({ time: expect.any(String), level: 'warn', msg: 'call failed', error: { message: 'request failed' } });
  });

  it('adds stacks at debug level', async () => {
    const [line] = await jsonLines({ level: 'debug' }, (logger) => {
      logger.error('failed', { error: new TypeError('boom') });
    });
    expect(line).toMatchObject({ error: { name: 'TypeError', message: 'boom', stack: expect.stringContaining('logger.test') } });
  });

  it('keeps metadata named like record fields, cuts cycles and normalises odd values', async () => {
    const cycle: Record<string, unknown> = { name: 'loop' };
    cycle['self'] = cycle;
    const [line] = await jsonLines({}, (logger) => {
      logger.info('odd', { time: 'theirs', msg: 'theirs', cycle, big: 10n, at: new Date(0), missing: undefined, tags: new Set(['a']) });
    });
    expect(line).toEqual({
      time: expect.not.stringMatching('theirs'),
      level: 'info',
      msg: 'odd',
      'meta.time': 'theirs',
      'meta.msg': 'theirs',
      cycle: { name: 'loop', self: '[circular]' },
      big: '10',
      at: '1970-01-01T00:00:00.000Z',
      tags: ['a'],
    });
  });
});

describe('createLogger, text', () => {
  it('writes one readable line with the metadata as key=value', async () => {
    const [line] = await textLines({}, (logger) => {
      logger.child({ controller: 'appcred', key: 'team-a/db' }).info('reconciled', { note: 'two words', count: 2 });
    });
    expect(line).toMatch(/^\d{4}-\d\d-\d\dT\S+Z INFO {2}reconciled controller=appcred key=team-a\/db note="two words" count=2$/);
  });

  it('masks Sensitive values, nested and in error messages', async () => {
    const lines = await textLines({}, (logger) => {
      logger.warn('login', { password: sensitive(SECRET), request: { auth: [{ secret: sensitive(SECRET) }] } });
      logger.error('failed', new Error(`rejected ${sensitive(SECRET).toString()}`));
    }, 2);
    expect(lines.join('\n')).not.toContain(SECRET);
    expect(lines[0]).toContain('password=*** request={"auth":[{"secret":"***"}]}');
    expect(lines[1]).toContain('ERROR failed error={"message":"rejected ***"}');
  });

  it('logs errors without stacks at info level and keeps every record on one line', async () => {
    const lines = await textLines({}, (logger) => {
      logger.error('conflict', { error: keywardConflict() });
      logger.info('first\nsecond');
    }, 2);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('error={"message":"update Lease ns/x: Conflict","name":"KeywardError","api":"kubernetes","reason":"Conflict","code":409}');
    expect(lines[0]).not.toContain('at ');
    expect(lines[1]).toContain('INFO  first\\nsecond');
  });
});
