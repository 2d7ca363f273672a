import * as t from 'io-ts';
import { atMost, fields as f, uniqueList } from '@keyward/kernel/model';
import { pruneRuleDescription } from '../prune.js';

// A client's roles: each a role name (the Kopf operator's form) or a role object. A structural schema cannot
// type an item as a string or an object, so the items are untyped in the CRD; the API server's CEL cannot read
// an untyped value either (Kubernetes 1.34 refuses a rule on it, or on a list of them), so the codec alone
// checks them, reads a name as { name }, and names the field in its messages.

/** Keycloak 26.7.3 stores a client role name of at most 255 characters (measured). */
const CLIENT_ROLE_NAME_MAX_LENGTH = 255;
/** The most roles a client lists: the API server bounds a list of untyped items by this alone. */
const MAX_CLIENT_ROLES = 100;
const ROLE_FIELDS = ['name', 'description', 'attributes'] as const;

const ClientRole = f.object({
  name: f.text(CLIENT_ROLE_NAME_MAX_LENGTH).describe('The role\'s name.').required(),
  description: f.string().describe('The role\'s description; left out, as Keycloak has it.'),
  attributes: f.stringMap().describe('The role\'s attributes, compared key by key; keys left out stay.'),
});

export type ClientRoleSpec = t.TypeOf<typeof ClientRole.codec>;

const NAME_MESSAGE = `a role's name is a string of 1 to ${String(CLIENT_ROLE_NAME_MAX_LENGTH)} characters`;
const FIELD_MESSAGE = `a role object has only the fields ${ROLE_FIELDS.join(', ')}`;
const isObject = (u: unknown): u is Readonly<Record<string, unknown>> => typeof u === 'object' && u !== null && !Array.isArray(u);
const known: ReadonlySet<string> = new Set(ROLE_FIELDS);

/** A role name read as { name }, or a role object with only the known fields. */
const roleItem = new t.Type<ClientRoleSpec, ClientRoleSpec>(
  `a role name or a role object (${ROLE_FIELDS.join(', ')})`,
  (u): u is ClientRoleSpec => ClientRole.codec.is(u) && Object.keys(u).every((key) => known.has(key)),
  (u, c) => {
    if (typeof u === 'string') {
      const named = ClientRole.codec.validate({ name: u }, c);
      return named._tag === 'Left' ? t.failure(u, c, `${NAME_MESSAGE}, got ${JSON.stringify(u.length > 40 ? `${u.slice(0, 40)}...` : u)}`) : named;
    }
    if (!isObject(u)) return t.failure(u, c);
    const unknown = Object.keys(u).find((key) => !known.has(key));
    if (unknown !== undefined) return t.failure(u[unknown], [...c, { key: unknown, type: t.unknown, actual: u[unknown] }], FIELD_MESSAGE);
    return ClientRole.codec.validate(u, c);
  },
  (role) => ClientRole.codec.encode(role),
);

/** spec.clientRoles. */
export const ClientRoles = f.field(atMost(uniqueList(t.array(roleItem), (role) => role.name), MAX_CLIENT_ROLES), {
  type: 'array',
  maxItems: MAX_CLIENT_ROLES,
  items: { 'x-kubernetes-preserve-unknown-fields': true },
  'x-kubernetes-list-type': 'atomic',
}).describe(
  'Roles of the client: each a role name, or an object with the role\'s name, description (left out, as Keycloak has it) and attributes ' +
  `(compared key by key; keys left out stay). ${pruneRuleDescription('clientRoles')} ` +
  `The items are stored as given (a schema cannot type an item as a string or an object); one that is neither, a name of more than ${String(CLIENT_ROLE_NAME_MAX_LENGTH)} characters, ` +
  'an unknown field or a name listed twice is reported as invalid in status. The list is atomic to server-side apply: an apply states the whole list.',
);
