import * as t from 'io-ts';
import { integerInRange, uniqueList } from '@keyward/kernel/model';
import { listMapOf } from '../../list-schema.js';

// Required actions of a KeycloakRealm as a codec; required-action-crd.ts states the same rules as a schema.

/** Keycloak registers a required action under its provider's id, so that is its alias. */
export const REQUIRED_ACTION_ALIAS_MAX_LENGTH = 255;
export const MAX_REQUIRED_ACTIONS = 100;
/** Keycloak keeps a required action's priority as a Java int. */
export const REQUIRED_ACTION_PRIORITY_MAX = 2_147_483_647;

const alias = new t.Type<string>(
  `a string of 1 to ${String(REQUIRED_ACTION_ALIAS_MAX_LENGTH)} characters`,
  (u): u is string => typeof u === 'string' && u.length >= 1 && u.length <= REQUIRED_ACTION_ALIAS_MAX_LENGTH,
  (u, c) => (typeof u === 'string' && u.length >= 1 && u.length <= REQUIRED_ACTION_ALIAS_MAX_LENGTH ? t.success(u) : t.failure(u, c)),
  t.identity,
);

const RequiredActionCodec = t.intersection([
  t.type({ alias }),
  t.partial({
    name: t.string,
    enabled: t.boolean,
    defaultAction: t.boolean,
    priority: integerInRange(0, REQUIRED_ACTION_PRIORITY_MAX),
    config: t.record(t.string, t.string),
  }),
]);

export type RequiredActionSpec = t.TypeOf<typeof RequiredActionCodec>;

export const RequiredActionsCodec = uniqueList(t.array(RequiredActionCodec), (action) => action.alias);

export const requiredActionsSchema = listMapOf('alias', {
  type: 'object',
  required: ['alias'],
  properties: {
    alias: { type: 'string', minLength: 1, maxLength: REQUIRED_ACTION_ALIAS_MAX_LENGTH, description: 'The action\'s alias: its provider\'s id, e.g. CONFIGURE_TOTP.' },
    name: { type: 'string', description: 'The name users are shown.' },
    enabled: { type: 'boolean', description: 'Whether users can be given the action.' },
    defaultAction: { type: 'boolean', description: 'Whether every new user gets it.' },
    priority: { type: 'integer', format: 'int32', minimum: 0, maximum: REQUIRED_ACTION_PRIORITY_MAX, description: 'Where the action comes among those a user is asked for; lower first.' },
    config: { type: 'object', additionalProperties: { type: 'string' }, description: 'The action\'s settings, compared on the keys given; Keycloak\'s other keys stay.' },
  },
}, {
  maxItems: MAX_REQUIRED_ACTIONS,
  description:
    'Required actions, by alias (their provider\'s id): registered when Keycloak has them unregistered, and set to the fields given. ' +
    'Those this object registered (status.registeredRequiredActions) and no longer lists are unregistered while the list names some, or when pruneUnlisted names requiredActions.',
});
