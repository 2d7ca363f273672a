// The Kopf operator's authorization policies and permissions: an object holding a list per type
// (`policies.rolePolicies`, `permissions.scopePermissions`, ...), where Keyward has one list of items with a
// `type`. Each item is read as Keyward's item of its list's type, with the same fields (a group policy's
// groups, paths there, become Keyward's `{path}`), checked where it stands so that a message names the
// Kopf operator's field. Its JavaScript policies count only with `allowJavaScriptPolicies: true`, as there
// (it skipped them otherwise); that switch never allows what the operator's own flag does not.
import * as t from 'io-ts';
import { fields as f } from '@keyward/kernel/model';
import { notAField, refusingUnknownKeys } from '../known-fields.js';
import { isFields, type Fields, contextAt, type UpstreamShape } from '../upstream-spellings.js';
import { AuthorizationPermission, AuthorizationPolicy, TIME_DATE_FIELDS, TIME_NUMBER_FIELDS } from './authorization-policy-spec.js';


interface UpstreamList {
  /** Keyward's type of the items. */
  readonly type: string;
  /** The item's fields besides the common ones, as the Kopf operator's CRD has them. */
  readonly fields: readonly string[];
  /** The fields the Kopf operator's models require of its items (a list among them must not be empty). */
  readonly required?: readonly string[];
}

const POLICY_COMMON = ['name', 'description', 'logic'] as const;
const PERMISSION_COMMON = ['name', 'description'] as const;

export const UPSTREAM_POLICY_LISTS: Readonly<Record<string, UpstreamList>> = {
  rolePolicies: { type: 'role', fields: [...POLICY_COMMON, 'roles', 'fetchRoles'] },
  userPolicies: { type: 'user', fields: [...POLICY_COMMON, 'users'] },
  groupPolicies: { type: 'group', fields: [...POLICY_COMMON, 'groups', 'groupsClaim'] },
  clientPolicies: { type: 'client', fields: [...POLICY_COMMON, 'clients'] },
  timePolicies: { type: 'time', fields: [...POLICY_COMMON, ...TIME_DATE_FIELDS, ...TIME_NUMBER_FIELDS] },
  regexPolicies: { type: 'regex', fields: [...POLICY_COMMON, 'targetClaim', 'pattern'], required: ['targetClaim', 'pattern'] },
  aggregatePolicies: { type: 'aggregate', fields: [...POLICY_COMMON, 'decisionStrategy', 'policies'] },
  javascriptPolicies: { type: 'js', fields: [...POLICY_COMMON, 'code'], required: ['code'] },
};

export const UPSTREAM_PERMISSION_LISTS: Readonly<Record<string, UpstreamList>> = {
  resourcePermissions: { type: 'resource', fields: [...PERMISSION_COMMON, 'decisionStrategy', 'resources', 'resourceType', 'policies'] },
  scopePermissions: { type: 'scope', fields: [...PERMISSION_COMMON, 'decisionStrategy', 'resources', 'resourceType', 'scopes', 'policies'], required: ['scopes'] },
};

const ALLOW_JS = 'allowJavaScriptPolicies';
const JS_LIST = 'javascriptPolicies';

export const POLICIES_NOTE = 'authorizationSettings.policies{} is read as authorizationSettings.policies[], each item of the type of its list';
export const PERMISSIONS_NOTE = 'authorizationSettings.permissions{} is read as authorizationSettings.permissions[], each item of the type of its list';
export const SKIPPED_JS_NOTE = `authorizationSettings.policies.${JS_LIST} has no effect without ${ALLOW_JS}: true (the Kopf operator skipped them)`;


/** `c` with its last entry holding `value`, so that messages name the fields inside it as the API server does. */
function holding(c: t.Context, value: unknown): t.Context {
  const last = c[c.length - 1];
  return last === undefined ? c : [...c.slice(0, -1), { ...last, actual: value }];
}

const groupPaths = f.set(f.text(255));

/** Whether the item states `field`, a list with something in it when a list (as its models' validators want). */
const states = (item: Fields, field: string): boolean => item[field] !== undefined && !(Array.isArray(item[field]) && item[field].length === 0);

/** One item of the Kopf operator's list, as Keyward's item of `type`, or what is wrong with it. */
function readItem(item: unknown, list: UpstreamList, key: string, codec: t.Mixed, c: t.Context): t.Validation<unknown> {
  if (!isFields(item)) return t.failure(item, c, 'expected an object');
  const unknown = Object.keys(item).find((field) => !list.fields.includes(field));
  if (unknown !== undefined) return notAField(item[unknown], c, [unknown], list.fields);
  // Its models refuse such an item, and Keyward's item would take it: a regex policy without its pattern.
  const missing = list.required?.find((field) => !states(item, field));
  if (missing !== undefined) return t.failure(item[missing], contextAt(c, [missing]), `required: the Kopf operator's ${key} need ${missing}`);
  let read: Fields = { ...item, type: list.type };
  if (item['groups'] !== undefined) {
    const paths = groupPaths.codec.validate(item['groups'], holding(contextAt(c, ['groups']), item['groups']));
    if (paths._tag === 'Left') return paths;
    read = { ...read, groups: paths.right.map((path) => ({ path })) };
  }
  const checked = codec.validate(read, holding(c, read));
  return checked._tag === 'Left' ? checked : t.success(read);
}

/**
 * The Kopf operator's object at `authorizationSettings.<field>` as Keyward's list: its lists' items in the order
 * the object gives them, each read by readItem; undefined when the field is not such an object.
 */
function readLists(spec: Readonly<Fields>, field: string, lists: Readonly<Record<string, UpstreamList>>, item: f.AnyField, c: t.Context): t.Validation<Fields> | undefined {
  const settings = spec['authorizationSettings'];
  if (!isFields(settings) || !isFields(settings[field])) return undefined;
  const object = settings[field];
  const here = contextAt(c, ['authorizationSettings', field]);
  const codec = refusingUnknownKeys(item.codec, item.schema);
  const items: unknown[] = [];
  const named = new Map<string, string>();
  for (const [key, value] of Object.entries(object)) {
    const list = lists[key];
    if (key === ALLOW_JS && field === 'policies') {
      if (typeof value !== 'boolean') return t.failure(value, contextAt(here, [key]), 'expected true or false');
      continue;
    }
    if (list === undefined) return notAField(value, here, [key], [...Object.keys(lists), ...(field === 'policies' ? [ALLOW_JS] : [])]);
    if (!Array.isArray(value)) return t.failure(value, contextAt(here, [key]), 'expected a list');
    for (const [index, entry] of (value as readonly unknown[]).entries()) {
      const at = holding(contextAt(here, [key, index]), entry);
      const read = readItem(entry, list, key, codec, at);
      if (read._tag === 'Left') return read;
      const name = (read.right as Fields)['name'] as string;
      const first = named.get(name);
      if (first !== undefined) return t.failure(name, contextAt(at, ['name']), `the name is given twice (first at ${first}): names are unique among the client's ${field}`);
      named.set(name, `${key}[${String(index)}]`);
      items.push(read.right);
    }
  }
  return t.success({ ...spec, authorizationSettings: { ...settings, [field]: items } });
}

/** The Kopf operator's JavaScript policies without its switch on: dropped, as it skipped them. */
function skippedJs(spec: Readonly<Fields>): t.Validation<Fields> | undefined {
  const settings = spec['authorizationSettings'];
  const policies = isFields(settings) ? settings['policies'] : undefined;
  if (!isFields(settings) || !isFields(policies) || !(JS_LIST in policies) || policies[ALLOW_JS] === true) return undefined;
  const { [JS_LIST]: _skipped, ...rest } = policies;
  return t.success({ ...spec, authorizationSettings: { ...settings, policies: rest } });
}

const sameSchema = <S extends object>(spec: S): S => spec;

/** The Kopf operator's policies and permissions, read into Keyward's lists (the fields are untyped in the CRD). */
export const AUTHORIZATION_UPSTREAM_SHAPES: readonly UpstreamShape[] = [
  { note: SKIPPED_JS_NOTE, read: skippedJs, schema: sameSchema },
  { note: POLICIES_NOTE, read: (spec, c) => readLists(spec, 'policies', UPSTREAM_POLICY_LISTS, AuthorizationPolicy, c), schema: sameSchema },
  { note: PERMISSIONS_NOTE, read: (spec, c) => readLists(spec, 'permissions', UPSTREAM_PERMISSION_LISTS, AuthorizationPermission, c), schema: sameSchema },
];
