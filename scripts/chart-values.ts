// The parts of the Helm chart (deploy/helm/keyward) that come from the operator's API and controller modules:
// the controllers and the modules' settings in values.yaml and values.schema.json, the variables the
// Deployment passes them on as and the checks of their values (_modules.tpl), and the RBAC rules (_rbac.tpl,
// see chart-rbac.ts). Written by scripts/generate-chart.ts; a test checks the committed files match.
import { readFileSync } from 'node:fs';
import type { ConfigOption, HelmValue } from '@keyward/kernel/plan';
import { API_MODULES } from '../packages/operator/src/apis.js';
import { CONTROLLER_NAMES, MODULES } from '../packages/operator/src/controllers.js';
import { longFlag } from '../packages/operator/src/option-spec.js';
import { CHART, GENERATED, templateString, valueExpression } from './chart-helm.js';
import { RBAC_TEMPLATE, rbacTemplate } from './chart-rbac.js';

const VALUES = `${CHART}/values.yaml`;
const SCHEMA = `${CHART}/values.schema.json`;
const TEMPLATE = `${CHART}/templates/_modules.tpl`;

/** An option with its Helm value, and whether an API module or a controller module declares it. */
interface ChartSetting {
  readonly option: ConfigOption<unknown> & { readonly env: string; readonly helm: HelmValue };
  readonly of: 'api' | 'controller';
}

/** The options that have a Helm value, each once: the controller modules' (in their order), then the API modules'. */
function chartSettings(): ChartSetting[] {
  const declared = [
    ...MODULES.flatMap((module) => Object.values<ConfigOption<unknown> | undefined>(module.options).map((option) => ({ option, of: 'controller' as const }))),
    ...API_MODULES.flatMap((module) => Object.values(module.options).map((option) => ({ option, of: 'api' as const }))),
  ];
  const settings = new Map<string, ChartSetting>();
  for (const { option, of } of declared) {
    if (option?.helm === undefined || settings.has(option.helm.path)) continue;
    const { env, helm } = option;
    if (env === undefined) throw new Error(`${longFlag(option)} has a Helm value but no variable to pass it in`);
    settings.set(helm.path, { option: { ...option, env, helm }, of });
  }
  return [...settings.values()];
}

/** A tree of values by path, in the order the settings come. */
type Tree = Map<string, Tree | ChartSetting>;

function tree(settings: readonly ChartSetting[]): Tree {
  const root: Tree = new Map();
  for (const setting of settings) {
    const keys = setting.option.helm.path.split('.');
    let node = root;
    for (const key of keys.slice(0, -1)) {
      const child = node.get(key) ?? new Map<string, Tree | ChartSetting>();
      if (!(child instanceof Map)) throw new Error(`${setting.option.helm.path} lies under another value`);
      node.set(key, child);
      node = child;
    }
    node.set(keys.at(-1) ?? '', setting);
  }
  return root;
}

/** The text of a comment, wrapped to the width of values.yaml. */
function comment(text: string, indent: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && indent.length + 2 + line.length + 1 + word.length > 110) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  return [...lines, line].map((text) => `${indent}# ${text}`);
}

/** A setting's default in values.yaml. */
function yamlDefault({ type, default: fallback }: HelmValue): string {
  if (typeof type === 'object') return '[]';
  if (type === 'boolean') return String(fallback ?? false);
  const text = String(fallback ?? '');
  return /^[a-z0-9][-a-z0-9.]*$/.test(text) ? text : JSON.stringify(text);
}

function yamlLines(node: Tree, indent: string): string[] {
  return [...node.entries()].flatMap(([key, child], index) => [
    // A blank line between the sections.
    ...(indent === '' && index > 0 ? [''] : []),
    ...(child instanceof Map
      ? [`${indent}${key}:`, ...yamlLines(child, `${indent}  `)]
      : [...comment(`${longFlag(child.option)}: ${child.option.helm.comment}`, indent), `${indent}${key}: ${yamlDefault(child.option.helm)}`]),
  ]);
}

/** A setting's schema, with the chart's definitions. */
function schemaOf({ type }: HelmValue): object {
  if (typeof type === 'object') return { type: 'array', uniqueItems: true, items: { type: 'string', pattern: type.listOf } };
  switch (type) {
    case 'text':
    case 'namespacedName': return { $ref: '#/definitions/optionalString' };
    case 'number': return { $ref: '#/definitions/optionalNumber' };
    case 'boolean': return { type: 'boolean' };
    case 'namespace': return { $ref: '#/definitions/dns1123Label' };
  }
}

function schemaProperties(node: Tree): Record<string, object> {
  return Object.fromEntries([...node.entries()].map(([key, child]) => [key, child instanceof Map
    ? { type: 'object', additionalProperties: false, properties: schemaProperties(child) }
    : schemaOf(child.option.helm)]));
}

/** A named template that gives the settings' variables and values as a JSON list of [name, value] pairs. */
function settingsTemplate(name: string, settings: readonly ChartSetting[]): string {
  const pairs = settings.map(({ option }) => `  (list ${templateString(option.env)} ${valueExpression(option.helm)})`);
  return [`{{- define ${templateString(name)} -}}`, '{{- toJson (list', ...pairs, ') -}}', '{{- end }}'].join('\n');
}

/** The namespace/name the operator's parseSecretRef takes, for a value of type namespacedName. */
const NAMESPACED_NAME = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?/[a-z0-9]([-.a-z0-9]*[a-z0-9])?$';

/** The checks of a value the schema cannot make, failing with a message that names it; none for most. */
function valueChecks({ path, type, retired }: HelmValue): string[] {
  const value = `.Values.${path}`;
  return [
    ...(type === 'namespacedName'
      ? [`{{- if and ${value} (not (regexMatch ${templateString(NAMESPACED_NAME)} ${value})) -}}`, `{{- fail (printf ${templateString(`${path}: %q is not namespace/name`)} ${value}) -}}`, '{{- end -}}']
      : []),
    ...(retired === undefined ? [] : [`{{- if ${value} -}}`, `{{- fail ${templateString(`${path}: ${retired}`)} -}}`, '{{- end -}}']),
  ];
}

const CONTROLLERS_COMMENT = 'Each gets its roles; a controller left out gets none. (The CRDs in crds/ are all installed; pass --skip-crds to helm and install the ones you want with `keyward crds --controllers <list>` or from deploy/crds instead. A controller whose CRD is not installed says so once in the log and starts when it appears; the others run meanwhile.)';

/** values.yaml's text with the part between `# <name>` and `# </name>` replaced by `lines`. */
function replaceRegion(text: string, name: string, lines: readonly string[]): string {
  const start = `# <${name}> ${GENERATED}\n`;
  const end = `# </${name}>\n`;
  const from = text.indexOf(start);
  const to = text.indexOf(end, from);
  if (from < 0 || to < 0) throw new Error(`${VALUES} has no region ${start.trim()} ... ${end.trim()}`);
  return `${text.slice(0, from + start.length)}${lines.map((line) => `${line}\n`).join('')}${text.slice(to)}`;
}

/**
 * JSON as the chart's schema writes it: an object or array on one line when it fits in 120 columns, else one
 * member a line.
 */
export function compactJson(value: unknown, indent = ''): string {
  const inline = JSON.stringify(value, null, 1).replace(/\n\s*/g, ' ').replace(/\[ /g, '[').replace(/ \]/g, ']');
  if (typeof value !== 'object' || value === null || (indent !== '' && indent.length + inline.length <= 120)) return inline;
  const inner = `${indent}  `;
  if (Array.isArray(value)) return `[\n${value.map((item) => `${inner}${compactJson(item, inner)}`).join(',\n')}\n${indent}]`;
  return `{\n${Object.entries(value).map(([key, item]) => `${inner}${JSON.stringify(key)}: ${compactJson(item, inner)}`).join(',\n')}\n${indent}}`;
}

/**
 * The chart's generated files by path: values.yaml and values.schema.json as they are committed, with the
 * parts the modules make rewritten, the named templates of the modules' variables and value checks
 * (_modules.tpl), and of the RBAC rules (_rbac.tpl).
 */
export function chartFiles(read: (path: string) => string = (path) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8')): Record<string, string> {
  const settings = chartSettings();
  const values = tree(settings);
  const controllers = [
    ...comment(`The controllers to run, any of: ${CONTROLLER_NAMES.join(', ')}. ${CONTROLLERS_COMMENT}`, ''),
    'controllers:',
    ...CONTROLLER_NAMES.map((name) => `  - ${name}`),
  ];
  let yaml = replaceRegion(read(VALUES), 'controllers', controllers);
  yaml = replaceRegion(yaml, 'modules', yamlLines(values, ''));

  const schema = JSON.parse(read(SCHEMA)) as { properties: Record<string, unknown> };
  const generated: Record<string, unknown> = {
    controllers: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: CONTROLLER_NAMES } },
    ...schemaProperties(values),
  };
  // The generated sections keep their place in the schema; a new one goes last.
  const properties = Object.fromEntries(Object.entries(schema.properties).map(([key, property]) => [key, key in generated ? generated[key] : property]));
  for (const [key, property] of Object.entries(generated)) properties[key] ??= property;

  const template = [
    `{{- /* ${GENERATED} file. */ -}}`,
    '',
    '{{- /* The controllers the operator knows; values.controllers must name only these. */ -}}',
    `{{- define "keyward.knownControllers" -}}\n${CONTROLLER_NAMES.join(' ')}\n{{- end }}`,
    '',
    '{{- /* The API modules\' settings (their clients\' limits) as [variable, value] pairs, JSON. */ -}}',
    settingsTemplate('keyward.apiSettings', settings.filter(({ of }) => of === 'api')),
    '',
    '{{- /* The controller modules\' settings as [variable, value] pairs, JSON. */ -}}',
    settingsTemplate('keyward.controllerSettings', settings.filter(({ of }) => of === 'controller')),
    '',
    '{{- /* Fails on a module\'s value the schema cannot refuse (a malformed namespace/name, a retired value). */ -}}',
    '{{- define "keyward.validateModuleValues" -}}',
    ...settings.flatMap(({ option }) => valueChecks(option.helm)),
    '{{- end }}',
    '',
  ].join('\n');
  return { [VALUES]: yaml, [SCHEMA]: `${compactJson({ ...schema, properties })}\n`, [TEMPLATE]: template, [RBAC_TEMPLATE]: rbacTemplate() };
}
