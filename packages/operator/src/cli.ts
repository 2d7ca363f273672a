import { Command, CommanderError } from 'commander';
import { createCrdsCommand, createPlanCommand, createRbacCommand, createRunCommand, crdsConfigFrom, oneLine, planConfigFrom, rbacConfigFrom, runConfigFrom, type ConfigResult, type OperatorConfig, type PlanConfig } from './config.js';
import { crdsYaml } from './crds.js';
import { EXIT_CODES } from './exit-codes.js';
import { planCommand } from './plan.js';
import { rbacYaml } from './rbac-manifests.js';
import { runOperator } from './run.js';
import type { RuntimeFacts } from './runtime-facts.js';
import { operatorVersion } from './version.js';

export { EXIT_CODES } from './exit-codes.js';

/** What the CLI touches, so tests can run it in-process. */
export interface CliDependencies {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly facts: RuntimeFacts;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly runOperator?: (config: OperatorConfig) => Promise<void>;
  /** Resolves to the exit status. */
  readonly planCommand?: (config: PlanConfig) => Promise<number>;
}

/** Runs `keyward <argv>` and resolves to the exit status; never exits the process itself. */
export async function runCli(argv: readonly string[], dependencies: CliDependencies): Promise<number> {
  let status: number = EXIT_CODES.ok;
  const program = createProgram(dependencies, (code) => (status = code));
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return status;
  } catch (error) {
    // Commander has already printed its message and the usage hint.
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT_CODES.ok : EXIT_CODES.usage;
    dependencies.stderr(`keyward: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT_CODES.failure;
  }
}

function createProgram(dependencies: CliDependencies, setStatus: (code: number) => void): Command {
  const { env, facts, stdout } = dependencies;
  const run = createRunCommand().action(async (_options: unknown, command: Command) => {
    await (dependencies.runOperator ?? runOperator)(configOrUsageError(command, runConfigFrom(command, env, facts)));
  });
  const plan = createPlanCommand().action(async (_options: unknown, command: Command) => {
    setStatus(await (dependencies.planCommand ?? planCommand)(configOrUsageError(command, planConfigFrom(command, env, facts))));
  });
  const crds = createCrdsCommand().action((_options: unknown, command: Command) => {
    stdout(crdsYaml(configOrUsageError(command, crdsConfigFrom(command, env, facts)).controllers));
  });
  const rbac = createRbacCommand().action((_options: unknown, command: Command) => {
    stdout(rbacYaml(configOrUsageError(command, rbacConfigFrom(command, env, facts))));
  });
  const version = new Command('version').description('print the version').action(() => {
    stdout(`keyward ${operatorVersion()}\n`);
  });
  const program = new Command('keyward')
    .description('Declarative reconcilers for identity and credentials on Kubernetes')
    .version(`keyward ${operatorVersion()}`, '-v, --version', 'print the version')
    .showHelpAfterError("run 'keyward --help' for usage");
  for (const command of [program, run, plan, crds, rbac, version]) {
    command.exitOverride().configureOutput({
      writeOut: stdout,
      writeErr: dependencies.stderr,
      outputError: (message, write) => {
        write(`${oneLine(message)}\n`);
      },
    });
    if (command !== program) program.addCommand(command);
  }
  return program;
}

/** The configuration, or commander's usage error (message and hint printed, exit status 64). */
function configOrUsageError<C>(command: Command, result: ConfigResult<C>): C {
  if (!result.ok) command.error(`error: ${result.error}`, { exitCode: EXIT_CODES.usage, code: 'keyward.invalidConfig' });
  return result.config;
}
