// The Kopf operator's scope mappings, in Keycloak's realm representation's shape: `scopeMappings[]` names a
// client or client scope and the realm `roles` it may put in tokens (a spelling: upstream.ts reads `roles` as
// `realmRoles`), and `clientScopeMappings` names them per client whose roles they are (clientId → entries). Each
// of the latter is read into Keyward's entry for the same target, as its `clientRoles` of that client.
import * as t from 'io-ts';
import { fields as f } from '@keyward/kernel/model';
import { isFields, type Fields, contextAt, type UpstreamShape } from '../../upstream-spellings.js';
import { BUILT_IN_SCOPE_MESSAGE, isBuiltInClientScope } from '../built-ins.js';
import { roleNames } from '../groups/spec.js';
import { MAX_SCOPE_MAPPINGS, ONE_TARGET_MESSAGE } from './spec.js';

export const CLIENT_SCOPE_MAPPINGS_NOTE = 'clientScopeMappings is read as scopeMappings[].clientRoles';
export const twiceMessage = (clientId: string): string =>
  `the roles of ${clientId} this target may put in tokens are stated twice (clientScopeMappings, or scopeMappings[].clientRoles): state them once`;

const Entry = f.object({
  client: f.nonEmpty().describe('A client, by clientId.'),
  clientScope: f.nonEmpty().describe('A client scope, by name; not one of Keycloak\'s built-in scopes.'),
  roles: roleNames.describe('Roles of the client this list is under, by name.'),
}).schemaOnly({ oneOf: [{ required: ['client'] }, { required: ['clientScope'] }] });

// Plain schema rules, not CEL: a rule on items of lists in a map costs the API server more than it allows.
const ClientScopeMappings = f.record(f.list(Entry, { maxItems: MAX_SCOPE_MAPPINGS }))
  .describe('The Kopf operator\'s (and Keycloak\'s realm representation\'s) client roles a client or client scope may put in tokens, by the clientId of the roles\' client; read as scopeMappings[].clientRoles of that client (stating the same client\'s roles for one target in both is refused).');

type EntryFields = t.TypeOf<typeof Entry.codec>;

const sameTarget = (entry: unknown, target: EntryFields): entry is Fields =>
  isFields(entry) && (target.client === undefined ? entry['clientScope'] === target.clientScope : entry['client'] === target.client);

/** `entry` with the roles of `clientId`; undefined when it states them already. */
function withClientRoles(entry: Fields, clientId: string, roles: readonly string[]): Fields | undefined {
  const clientRoles = isFields(entry['clientRoles']) ? entry['clientRoles'] : {};
  if (clientId in clientRoles) return undefined;
  return { ...entry, clientRoles: { ...clientRoles, [clientId]: roles } };
}

function read(spec: Readonly<Fields>, c: t.Context): t.Validation<Fields> | undefined {
  if (!('clientScopeMappings' in spec)) return undefined;
  const { clientScopeMappings, ...rest } = spec;
  const at = contextAt(c, ['clientScopeMappings']);
  const decoded = ClientScopeMappings.codec.validate(clientScopeMappings, at);
  if (decoded._tag === 'Left') return decoded;
  // A scopeMappings that is not a list is the codec's to report, after this.
  if (!Array.isArray(rest['scopeMappings']) && rest['scopeMappings'] !== undefined) return t.success(rest);
  const entries: unknown[] = [...((rest['scopeMappings'] ?? []) as unknown[])];
  for (const [clientId, targets] of Object.entries(decoded.right)) {
    for (const [index, target] of targets.entries()) {
      const here = contextAt(at, [clientId, index]);
      if ((target.client === undefined) === (target.clientScope === undefined)) return t.failure(target, here, ONE_TARGET_MESSAGE);
      if (target.clientScope !== undefined && isBuiltInClientScope(target.clientScope)) return t.failure(target.clientScope, contextAt(here, ['clientScope']), BUILT_IN_SCOPE_MESSAGE);
      const found = entries.findIndex((entry) => sameTarget(entry, target));
      const listed = entries[found];
      const entry = isFields(listed) ? listed : target.client === undefined ? { clientScope: target.clientScope } : { client: target.client };
      const merged = withClientRoles(entry, clientId, target.roles ?? []);
      if (merged === undefined) return t.failure(target, here, twiceMessage(clientId));
      if (found < 0) entries.push(merged);
      else entries[found] = merged;
    }
  }
  return t.success({ ...rest, scopeMappings: entries });
}

/** The Kopf operator's `clientScopeMappings`, read into `scopeMappings`. */
export const CLIENT_SCOPE_MAPPINGS_SHAPE: UpstreamShape = {
  note: CLIENT_SCOPE_MAPPINGS_NOTE,
  read,
  schema: (spec) => {
    const schema = spec as { readonly properties?: Readonly<Record<string, unknown>> };
    return { ...spec, properties: { ...schema.properties, clientScopeMappings: ClientScopeMappings.schema } };
  },
};
