/** The fault scenarios, by file name under scenarios/. */
export const SCENARIOS: readonly string[] = ['kill9', 'fuzz', 'keystone-outage', 'apiserver-outage'];
