// Renders deploy/helm/keyward with the pinned Helm binary (`helm template`) for the tests, and reads what the
// chart's Deployment tells the operator, so tests can ask `keyward rbac` and the option parser about the same
// settings.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { runCli } from '../src/cli.js';
import type { Manifest } from './deploy.js';
import { CHART_DIR, RELEASE, runHelm, runHelmWithValues, type HelmOutcome, type Values } from '../../../scripts/in-cluster-install.js';

export { CHART_DIR, RELEASE, helm, runHelm, runHelmWithValues, type HelmOutcome, type Values } from '../../../scripts/in-cluster-install.js';

export interface RenderOptions {
  /** The release namespace (`helm template --namespace`). */
  readonly namespace: string;
  readonly values?: Values;
  /** Render the chart's crds/ too (`--include-crds`). */
  readonly includeCrds?: boolean;
  /** Do not check the values against values.schema.json (`--skip-schema-validation`). */
  readonly skipSchemaValidation?: boolean;
}

/** `helm template` of the chart with `values`, as it is; a failure is an outcome, not an exception. */
export function helmTemplateOutcome(options: RenderOptions): HelmOutcome {
  return runHelmWithValues(
    ['template', RELEASE, CHART_DIR, '--namespace', options.namespace, ...(options.includeCrds === true ? ['--include-crds'] : []), ...(options.skipSchemaValidation === true ? ['--skip-schema-validation'] : [])],
    options.values ?? {},
  );
}

/**
 * `helm template` of an umbrella chart that has this chart as its one dependency (by a file:// reference, as a
 * platform team's parent chart would), with the parent's `values`: this chart's own go under `keyward`.
 */
export function helmTemplateAsSubchartOutcome(namespace: string, values: Values): HelmOutcome {
  const dir = mkdtempSync(join(tmpdir(), 'keyward-umbrella-'));
  try {
    const parent = join(dir, 'platform');
    mkdirSync(parent);
    const { version } = parseStream(readFileSync(join(CHART_DIR, 'Chart.yaml'), 'utf8'), 'Chart.yaml')[0] as unknown as { version: string };
    const chart = { apiVersion: 'v2', name: 'platform', version: '1.0.0', dependencies: [{ name: 'keyward', version, repository: `file://${CHART_DIR}` }] };
    writeFileSync(join(parent, 'Chart.yaml'), JSON.stringify(chart));
    writeFileSync(join(parent, 'values.json'), JSON.stringify(values));
    const dependencies = runHelm(['dependency', 'build', parent]);
    if (dependencies.status !== 0) return dependencies;
    return runHelm(['template', RELEASE, parent, '--namespace', namespace, '--values', join(parent, 'values.json')]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The objects `helm template` renders for `options`; a failed render throws with Helm's message. */
export function helmTemplate(options: RenderOptions): Manifest[] {
  const outcome = helmTemplateOutcome(options);
  if (outcome.status !== 0) throw new Error(`helm template failed (${String(outcome.status)}): ${outcome.stderr}`);
  return parseStream(outcome.stdout, 'helm template');
}

/** The objects of a multi-document YAML stream; a syntax error or a duplicate key throws. */
export function parseStream(text: string, what: string): Manifest[] {
  return parseAllDocuments(text)
    .map((document) => {
      const problem = document.errors[0];
      if (problem !== undefined) throw new Error(`${what}: ${problem.message}`);
      return document.toJS() as Manifest | null;
    })
    .filter((object): object is Manifest => object !== null);
}

/** The chart's defaults, from values.yaml. */
export function chartDefaults(): Values {
  const [values] = parseStream(readFileSync(join(CHART_DIR, 'values.yaml'), 'utf8'), 'values.yaml') as unknown[];
  return values as Values;
}

export interface EnvVar {
  readonly name: string;
  readonly value?: string;
  readonly valueFrom?: { readonly fieldRef?: { readonly fieldPath?: string } };
}

export interface OperatorContainer {
  readonly name: string;
  readonly image: string;
  readonly args: readonly string[];
  readonly env: readonly EnvVar[];
  readonly [field: string]: unknown;
}

export interface DeploymentObject extends Manifest {
  readonly spec: {
    readonly replicas: number;
    readonly selector: { readonly matchLabels: Readonly<Record<string, string>> };
    readonly template: {
      readonly metadata: { readonly labels: Readonly<Record<string, string>>; readonly annotations?: Readonly<Record<string, string>> };
      readonly spec: { readonly serviceAccountName: string; readonly containers: readonly OperatorContainer[]; readonly [field: string]: unknown };
    };
  };
}

/** The one Deployment among `objects`, with its one container. */
export function operatorDeployment(objects: readonly Manifest[]): { deployment: DeploymentObject; container: OperatorContainer } {
  const deployments = objects.filter((object) => object.kind === 'Deployment') as DeploymentObject[];
  const [deployment, ...otherDeployments] = deployments;
  if (deployment === undefined || otherDeployments.length > 0) throw new Error(`expected one Deployment, got ${String(deployments.length)}`);
  const [container, ...others] = deployment.spec.template.spec.containers;
  if (container === undefined || others.length > 0) throw new Error('the Deployment should have exactly one container');
  return { deployment, container };
}

/**
 * A container's environment as the kubelet gives it: downward API fields from `fields`, and $(NAME) in a value
 * replaced by an earlier variable's value.
 */
export function containerEnvironment(container: OperatorContainer, fields: Readonly<Record<string, string>>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { name, value, valueFrom } of container.env) {
    const fieldPath = valueFrom?.fieldRef?.fieldPath;
    const raw = fieldPath === undefined ? value : fields[fieldPath];
    if (raw === undefined) throw new Error(`${name}: no value for ${String(fieldPath)}`);
    env[name] = raw.replace(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (reference, variable: string) => env[variable] ?? reference);
  }
  return env;
}

/** The pod IP the tests give the downward API. */
export const POD_IP = '10.1.2.3';

/** The environment the operator of a rendered Deployment in `namespace` starts with. */
export function operatorEnvironment(container: OperatorContainer, namespace: string): Record<string, string> {
  return containerEnvironment(container, { 'status.podIP': POD_IP, 'metadata.namespace': namespace });
}

/**
 * What `keyward rbac` prints for the operator a rendered chart runs: the command is given the Deployment's
 * environment and arguments, and the release namespace and ServiceAccount.
 */
export async function keywardRbacFor(objects: readonly Manifest[], namespace: string): Promise<Manifest[]> {
  const { deployment, container } = operatorDeployment(objects);
  const [command, ...args] = container.args;
  if (command !== 'run') throw new Error(`the operator runs ${String(command)}, not run`);
  let stdout = '';
  let stderr = '';
  const status = await runCli(['rbac', ...args, '--operator-namespace', namespace, '--service-account', deployment.spec.template.spec.serviceAccountName], {
    env: operatorEnvironment(container, namespace),
    facts: {},
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  if (status !== 0) throw new Error(`keyward rbac exited ${String(status)}: ${stderr}`);
  return parseStream(stdout, 'keyward rbac');
}
