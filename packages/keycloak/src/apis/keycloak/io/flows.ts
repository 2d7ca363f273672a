// Authentication flows and required actions: reading them for a realm query, and finding ids by the aliases plans use.
import type { AuthenticationFlowRepresentation, AuthenticatorConfigRepresentation, FlowExecutionRepresentation, FlowsRead, ObservedFlow, RequiredActionRepresentation } from '../flow-representations.js';
import { authenticatorConfigPath, flowExecutionsPath, flowsPath, requiredActionsPath } from './paths.js';
import type { AdminReads } from './reads.js';

/** The realm's top-level flows (Keycloak lists no sub-flows here); undefined when there is no realm. */
export async function readFlows(reads: AdminReads, realm: string): Promise<AuthenticationFlowRepresentation[] | undefined> {
  return reads.list<AuthenticationFlowRepresentation>({ path: flowsPath(realm), operation: 'list_authentication_flows', description: `list the authentication flows of realm ${realm}`, fields: ['id', 'alias'] });
}

export async function listFlows(reads: AdminReads, realm: string): Promise<AuthenticationFlowRepresentation[]> {
  return (await readFlows(reads, realm)) ?? [];
}

async function flowExecutions(reads: AdminReads, realm: string, alias: string): Promise<FlowExecutionRepresentation[] | undefined> {
  return reads.list<FlowExecutionRepresentation>({ path: flowExecutionsPath(realm, alias), operation: 'list_flow_executions', description: `list the executions of authentication flow ${alias} in realm ${realm}`, fields: ['id'] });
}

async function configsOf(reads: AdminReads, realm: string, executions: readonly FlowExecutionRepresentation[]): Promise<Record<string, AuthenticatorConfigRepresentation>> {
  const ids = executions.flatMap((execution) => (execution.authenticationConfig === undefined ? [] : [execution.authenticationConfig]));
  const configs = await Promise.all(ids.map((id) => reads.object<AuthenticatorConfigRepresentation>({ path: authenticatorConfigPath(realm, id), operation: 'get_authenticator_config', description: `read authenticator config ${id} in realm ${realm}`, fields: ['id', 'alias'] })));
  return Object.fromEntries(configs.flatMap((config) => (config === undefined ? [] : [[config.id, config]])));
}

/** The realm's flows, with the steps (and configs) of those `read` names. */
export async function observeFlows(reads: AdminReads, realm: string, read: FlowsRead): Promise<ObservedFlow[]> {
  const flows = await listFlows(reads, realm);
  const wanted = new Map(read.executionsOf.map((entry) => [entry.alias, entry.configs]));
  return Promise.all(flows.map(async (flow): Promise<ObservedFlow> => {
    const configs = wanted.get(flow.alias);
    if (configs === undefined) return { flow, configs: {} };
    const executions = (await flowExecutions(reads, realm, flow.alias)) ?? [];
    return { flow, executions, configs: configs ? await configsOf(reads, realm, executions) : {} };
  }));
}

export async function findFlowId(reads: AdminReads, realm: string, alias: string): Promise<string | undefined> {
  return (await listFlows(reads, realm)).find((flow) => flow.alias === alias)?.id;
}

/** A step's execution id: a sub-flow's by its alias, an authenticator's (its first) by its provider id. */
export async function findExecutionId(reads: AdminReads, realm: string, flow: string, name: string, subFlow: boolean): Promise<string | undefined> {
  const executions = (await flowExecutions(reads, realm, flow)) ?? [];
  const found = executions.find((execution) => (subFlow ? execution.authenticationFlow === true && execution.displayName === name : execution.providerId === name));
  return found?.id;
}

export async function listRequiredActions(reads: AdminReads, realm: string): Promise<RequiredActionRepresentation[]> {
  return (await reads.list<RequiredActionRepresentation>({ path: requiredActionsPath(realm), operation: 'list_required_actions', description: `list the required actions of realm ${realm}`, fields: ['alias'] })) ?? [];
}
