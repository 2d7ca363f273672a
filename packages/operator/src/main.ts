#!/usr/bin/env node
import { operatorVersion } from './version.js';

const USAGE = `usage: keyward <command>

commands:
  version   print the version`;

function main(args: readonly string[]): number {
  switch (args[0]) {
    case 'version':
      console.log(`keyward ${operatorVersion()}`);
      return 0;
    case undefined:
    case 'help':
    case '--help':
      console.log(USAGE);
      return 0;
    default:
      console.error(`keyward: unknown command "${args[0]}"\n\n${USAGE}`);
      return 2;
  }
}

process.exitCode = main(process.argv.slice(2));
