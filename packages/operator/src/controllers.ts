/** The controllers the operator can run, by the names used in --controllers, --concurrency and RBAC. */
export const CONTROLLER_NAMES = ['keystone-appcred', 'apikey-enforcement'] as const;

export type ControllerName = (typeof CONTROLLER_NAMES)[number];

export function isControllerName(value: string): value is ControllerName {
  return (CONTROLLER_NAMES as readonly string[]).includes(value);
}
