/** The fault scenarios, by file name under scenarios/. */
export const SCENARIOS: readonly string[] = ['kill9', 'fuzz', 'keystone-outage', 'apiserver-outage'];

/** Those that stop a component of their environment, and so always start one of their own. */
export const OWN_ENVIRONMENT_SCENARIOS: readonly string[] = ['apiserver-outage'];
