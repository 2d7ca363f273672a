import { Option } from 'commander';
import type { RuntimeFacts } from './runtime-facts.js';
import type { Parsed } from './values.js';

/**
 * One option: its flag, environment variable, default and parser. Commands, help, the options table in
 * docs/operations.md and the resolution (flag, else environment, else default) all come from these specs.
 */
export interface OptionSpec<T> {
  /** As commander takes them: '--concurrency <n>', '-f, --filename <file>'; a boolean has no placeholder. */
  readonly flags: string;
  /** The flag that turns a boolean off. */
  readonly negation?: { readonly flags: string; readonly description: string };
  readonly env?: string;
  readonly description: string;
  /** The default as help and docs show it. */
  readonly defaultText: string;
  /** Every occurrence counts, as if the values were joined by commas. */
  readonly repeatable?: boolean;
  readonly parse: (raw: string) => Parsed<T>;
  readonly fallback: (facts: RuntimeFacts) => T;
  /** The value as the flag takes it, where that is not its plain text (see ConfigOption.format). */
  format?(value: T): string;
  /**
   * The heading help lists it under ("Metrics and health", a controller's name), for a command whose help
   * groups its options; without one, the plain "Options".
   */
  readonly group?: string;
}

export type OptionSpecs = Readonly<Record<string, OptionSpec<unknown>>>;

/** A table of specs whose values are `V`'s fields: the type of each option's value is its spec's. */
export type OptionSpecsOf<V> = { readonly [K in keyof V]: OptionSpec<V[K]> };

/** What resolveOptions found: each option's value, typed as its spec, and which were given. */
export interface ResolvedOptions<V> {
  readonly ok: true;
  /** An option's value, typed by its spec. */
  readonly value: <K extends keyof V>(key: K) => V[K];
  /** Every option's value by key, as the modules read their settings: by name, each checking its own. */
  readonly values: Readonly<Record<string, unknown>>;
  /** The options given by flag or variable. */
  readonly explicit: readonly string[];
}

/** The long flag: '--filename' for '-f, --filename <file>'. */
export function longFlag(spec: Pick<OptionSpec<unknown>, 'flags'>): string {
  const flag = /--[a-z0-9-]+/.exec(spec.flags)?.[0];
  if (flag === undefined) throw new Error(`option "${spec.flags}" has no long flag`);
  return flag;
}

/** The commander options of a spec: the option itself and, for booleans, its negation. */
export function commanderOptions(spec: OptionSpec<unknown>): Option[] {
  const details = [...(spec.env === undefined ? [] : [`env: ${spec.env}`]), `default: ${spec.defaultText}`];
  const option = new Option(spec.flags, `${spec.description} (${details.join(', ')})`);
  if (spec.repeatable === true) option.argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]);
  return spec.negation === undefined ? [option] : [option, new Option(spec.negation.flags, spec.negation.description)];
}

/** A help group's heading as commander prints it. */
export function helpHeading(group: string): string {
  return `${group}:`;
}

/**
 * The commander options of specs grouped in help under their `group`, the groups in the order of `order` and
 * each group's options as given (commander prints the groups in the order their first options were added).
 * Fails on a spec without a group or with one `order` leaves out, so no option lands in a group of its own.
 */
export function groupedCommanderOptions(specs: readonly OptionSpec<unknown>[], order: readonly string[]): Option[] {
  const rank = (spec: OptionSpec<unknown>): number => {
    const index = spec.group === undefined ? -1 : order.indexOf(spec.group);
    if (index < 0) throw new Error(`option ${longFlag(spec)} has no help group among ${order.join(', ')}`);
    return index;
  };
  return specs
    .map((spec) => ({ spec, rank: rank(spec) }))
    .sort((a, b) => a.rank - b.rank)
    .flatMap(({ spec, rank }) => commanderOptions(spec).map((option) => option.helpGroup(helpHeading(order[rank] ?? ''))));
}

/**
 * Each option's value: the flag's when given, else the environment variable's (empty counts as unset),
 * else the default. `given` holds what commander parsed, by attribute name. `explicit` names the options given
 * by flag or variable, which a setting from elsewhere (a running operator's, for plan) must not override.
 * Fails with the first invalid value, naming the flag, the variable and the value.
 */
export function resolveOptions<V>(
  specs: OptionSpecsOf<V>,
  given: Readonly<Record<string, unknown>>,
  env: Readonly<Record<string, string | undefined>>,
  facts: RuntimeFacts,
): ResolvedOptions<V> | { readonly ok: false; readonly error: string } {
  const textOf = (spec: OptionSpec<unknown>): string | undefined =>
    rawValue(given[new Option(spec.flags).attributeName()]) ?? nonEmpty(spec.env === undefined ? undefined : env[spec.env]);
  const valueOf = <T>(spec: OptionSpec<T>): Parsed<T> => {
    const raw = textOf(spec);
    return raw === undefined ? { ok: true, value: spec.fallback(facts) } : spec.parse(raw);
  };
  const values: Record<string, unknown> = {};
  const explicit: string[] = [];
  for (const [key, spec] of Object.entries<OptionSpec<unknown>>(specs)) {
    const parsed = valueOf(spec);
    if (!parsed.ok) return { ok: false, error: `invalid ${longFlag(spec)}${spec.env === undefined ? '' : ` (${spec.env})`}: ${JSON.stringify(textOf(spec))} ${parsed.problem}` };
    values[key] = parsed.value;
    if (textOf(spec) !== undefined) explicit.push(key);
  }
  // A typed value is worked out again from its spec, which holds its type (a record of values cannot keep
  // each one's); every option was checked above, so this parse does not fail.
  const value = <K extends keyof V>(key: K): V[K] => {
    const parsed = valueOf(specs[key]);
    if (!parsed.ok) throw new Error(`${longFlag(specs[key])}: ${parsed.problem}`);
    return parsed.value;
  };
  return { ok: true, value, values, explicit };
}

/** Commander's value as text: booleans as true/false, repeated values joined by commas. */
function rawValue(value: unknown): string | undefined {
  if (value === undefined || typeof value === 'string') return value;
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.join(',');
  throw new Error(`unexpected option value ${JSON.stringify(value)}`);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === '' ? undefined : value;
}

/** The options as a Markdown table, for docs/operations.md. */
export function optionsTable(specs: OptionSpecs): string {
  const rows = Object.values(specs).map((spec) => {
    const flags = [spec.flags, ...(spec.negation === undefined ? [] : [spec.negation.flags])].map((flag) => `\`${flag}\``).join(', ');
    const env = spec.env === undefined ? '—' : `\`${spec.env}\``;
    return `| ${flags} | ${env} | ${spec.defaultText} | ${spec.description} |`;
  });
  return ['| Flag | Environment variable | Default | Meaning |', '| --- | --- | --- | --- |', ...rows].join('\n');
}
