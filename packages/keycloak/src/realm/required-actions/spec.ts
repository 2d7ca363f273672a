import type * as t from 'io-ts';
import { fields as f, withFieldRule } from '@keyward/kernel/model';

// Required actions of a KeycloakRealm, each field declared once for the codec and the CRD schema.

/** Keycloak registers a required action under its provider's id, so that is its alias. */
export const REQUIRED_ACTION_ALIAS_MAX_LENGTH = 255;
export const MAX_REQUIRED_ACTIONS = 100;
/** Keycloak keeps a required action's priority as a Java int. */
export const REQUIRED_ACTION_PRIORITY_MAX = 2_147_483_647;

/**
 * Keycloak's admin API registers an action under its provider's id as its alias, and keeps that provider when
 * the action is updated: an action whose provider differs from its alias cannot be made or kept there.
 */
export const PROVIDER_ID_MESSAGE = 'providerId must equal alias: Keycloak registers a required action under its provider\'s id';

const RequiredAction = f.object({
  alias: f.text(REQUIRED_ACTION_ALIAS_MAX_LENGTH).describe('The action\'s alias: its provider\'s id, e.g. CONFIGURE_TOTP.').required(),
  providerId: f.text(REQUIRED_ACTION_ALIAS_MAX_LENGTH).describe('The action\'s provider (the Kopf operator\'s field): when given, the alias.'),
  name: f.string().describe('The name users are shown.'),
  enabled: f.boolean().describe('Whether users can be given the action.'),
  defaultAction: f.boolean().describe('Whether every new user gets it.'),
  // int32 restates the range the codec checks.
  priority: f.integerAtLeast(0, `an integer from 0 to ${String(REQUIRED_ACTION_PRIORITY_MAX)}`, REQUIRED_ACTION_PRIORITY_MAX).schemaOnly({ format: 'int32' })
    .describe('Where the action comes among those a user is asked for; lower first.'),
  config: f.stringMap().describe('The action\'s settings, compared on the keys given; Keycloak\'s other keys stay.'),
}).rule(
  { rule: '!has(self.providerId) || self.providerId == self.alias', message: PROVIDER_ID_MESSAGE, fieldPath: '.providerId' },
  (codec) => withFieldRule('an object', codec, (action) => (action.providerId === undefined || action.providerId === action.alias ? undefined : { field: 'providerId', message: PROVIDER_ID_MESSAGE })),
);

export type RequiredActionSpec = t.TypeOf<typeof RequiredAction.codec>;

export const RequiredActions = f.listMap('alias', RequiredAction, { maxItems: MAX_REQUIRED_ACTIONS }).describe(
  'Required actions, by alias (their provider\'s id): registered when Keycloak has them unregistered, and set to the fields given. ' +
  'Those this object registered (status.registeredRequiredActions) and no longer lists are unregistered while the list names some, or when pruneUnlisted names requiredActions.',
);
export const RequiredActionsCodec = RequiredActions.codec;
export const requiredActionsSchema = RequiredActions.schema;
