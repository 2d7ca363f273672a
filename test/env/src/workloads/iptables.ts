import { host } from './host.js';

const TABLES = ['nat', 'filter', 'mangle'] as const;
const COMMANDS = ['iptables', 'ip6tables'] as const;
/** kube-proxy's chains (and kubelet's canaries) all start so. */
const PREFIX = 'KUBE-';

/** Splits one line of `iptables -S` into arguments; comments are quoted and may hold spaces. */
export function ruleArguments(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((match) => match[1] ?? match[2] ?? '');
}

function rules(command: string, table: string): string[] {
  try {
    return host(command, ['-w', '-t', table, '-S']).split('\n');
  } catch {
    // This kernel has no such table for this family: nothing of ours can be in it.
    return [];
  }
}

/** The KUBE- chains and the jumps into them that remain in the host's iptables and ip6tables. */
export function kubeRulesLeft(): string[] {
  return COMMANDS.flatMap((command) =>
    TABLES.flatMap((table) => rules(command, table).filter((line) => line.includes(PREFIX)).map((line) => `${command} -t ${table} ${line}`)),
  );
}

/**
 * Removes what kube-proxy and kubelet add to the host's packet filter: the jumps from the built-in chains into
 * KUBE- chains, then those chains. kube-proxy leaves them when it stops, and another tier's kube-proxy would
 * otherwise find stale Service rules.
 */
export function removeKubeRules(): void {
  for (const command of COMMANDS) {
    for (const table of TABLES) {
      const lines = rules(command, table);
      const chains = lines.filter((line) => line.startsWith(`-N ${PREFIX}`)).map((line) => line.slice(3));
      for (const line of lines) {
        const args = ruleArguments(line);
        if (args[0] === '-A' && !(args[1] ?? '').startsWith(PREFIX) && line.includes(` -j ${PREFIX}`)) host(command, ['-w', '-t', table, '-D', ...args.slice(1)]);
      }
      for (const chain of chains) host(command, ['-w', '-t', table, '-F', chain]);
      for (const chain of chains) host(command, ['-w', '-t', table, '-X', chain]);
    }
  }
}
