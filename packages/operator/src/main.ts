#!/usr/bin/env node
import { runCli } from './cli.js';
import { detectRuntimeFacts } from './runtime-facts.js';

// A reader that stops early (`keyward crds | head`) closes the pipe: the rest has nowhere to go, and that is
// the reader's choice, not a failure worth a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(0);
});

process.exitCode = await runCli(process.argv.slice(2), {
  env: process.env,
  facts: detectRuntimeFacts(),
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
