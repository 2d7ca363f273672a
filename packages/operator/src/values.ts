import { accept, commaList, formatDuration, isDns1123Label, parseDuration, parsePositiveInteger, reject, type Parsed } from '@keyward/kernel/model';

export { accept, commaList, parseBoolean, parseDns1123Label, parseDns1123Subdomain, parseHttpUrl, parseOneOf, parsePositiveInteger, parseString, reject } from '@keyward/kernel/model';
export type { Parsed } from '@keyward/kernel/model';
import { CONTROLLER_NAMES, isControllerName, type ControllerName } from './controllers.js';

/** A listening address; `host` undefined means every interface. */
export interface BindAddress {
  readonly host: string | undefined;
  readonly port: number;
}

/** A list of `choices`, deduplicated and in the order of `choices`; at least one. */
export function parseChoiceList<T extends string>(choices: readonly T[], noun: string): (raw: string) => Parsed<readonly T[]> {
  const names: readonly string[] = choices;
  return (raw) => {
    const items = commaList(raw);
    const unknown = items.find((item) => !names.includes(item));
    if (unknown !== undefined) return reject(`names unknown ${noun} "${unknown}" (valid: ${choices.join(', ')})`);
    if (items.length === 0) return reject(`names no ${noun} (valid: ${choices.join(', ')})`);
    return accept(choices.filter((choice) => items.includes(choice)));
  };
}

export const parseControllers = parseChoiceList(CONTROLLER_NAMES, 'controller');

/** A Go-style duration ("30s", "5m", "1h30m") within [min, max] milliseconds. */
export function parseDurationWithin(minMs: number, maxMs: number): (raw: string) => Parsed<number> {
  return (raw) => {
    const ms = parseDuration(raw);
    if (ms === undefined) return reject('is not a duration such as 30s, 5m or 1h');
    return ms >= minMs && ms <= maxMs ? accept(ms) : reject(`is not between ${formatDuration(minMs)} and ${formatDuration(maxMs)}`);
  };
}

export function parsePositiveNumber(raw: string): Parsed<number> {
  const value = Number(raw);
  return /^\d+(\.\d+)?$/.test(raw) && Number.isFinite(value) && value > 0 ? accept(value) : reject('is not a number > 0');
}

/** `n` for every controller, or `name=n` pairs; a bare `n` among pairs sets the others. */
export function parseConcurrency(defaultValue: number): (raw: string) => Parsed<Readonly<Record<ControllerName, number>>> {
  return (raw) => {
    let fallback = defaultValue;
    const overrides = new Map<ControllerName, number>();
    const items = commaList(raw);
    if (items.length === 0) return reject('is not an integer >= 1 or a list of controller=n');
    for (const item of items) {
      const [name, count, ...rest] = item.split('=').map((part) => part.trim());
      if (count === undefined) {
        const parsed = parsePositiveInteger(item);
        if (!parsed.ok) return parsed;
        fallback = parsed.value;
        continue;
      }
      if (name === undefined || rest.length > 0) return reject('is not an integer >= 1 or a list of controller=n');
      if (!isControllerName(name)) return reject(`names unknown controller "${name}" (valid: ${CONTROLLER_NAMES.join(', ')})`);
      if (overrides.has(name)) return reject(`sets ${name} twice`);
      const parsed = parsePositiveInteger(count);
      if (!parsed.ok) return reject(`sets ${name} to "${count}", which ${parsed.problem}`);
      overrides.set(name, parsed.value);
    }
    return accept(perController((name) => overrides.get(name) ?? fallback));
  };
}

/** A value for each controller. */
export function perController<T>(value: (name: ControllerName) => T): Readonly<Record<ControllerName, T>> {
  return Object.fromEntries(CONTROLLER_NAMES.map((name) => [name, value(name)]));
}

/** Namespaces to watch: a comma list of DNS-1123 labels; empty means every namespace. */
export function parseNamespaces(raw: string): Parsed<readonly string[] | 'all'> {
  const items = [...new Set(commaList(raw))];
  const bad = items.find((item) => !isDns1123Label(item));
  if (bad !== undefined) return reject(`has "${bad}", which is not a namespace name (a DNS-1123 label)`);
  return accept(items.length === 0 ? 'all' : items);
}

/** `[host]:port` (host may be an IPv6 address in brackets), or "0" to disable the listener. */
export function parseBindAddress(raw: string): Parsed<BindAddress | 'disabled'> {
  if (raw === '0') return accept('disabled');
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]*)):(\d{1,5})$/.exec(raw);
  const port = Number(match?.[3]);
  if (match === null || port > 65_535) return reject('is not [host]:port, or "0" to disable');
  const host = match[1] ?? match[2];
  return accept({ host: host === undefined || host === '' ? undefined : host, port });
}
