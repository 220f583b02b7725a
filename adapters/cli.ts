#!/usr/bin/env node
// `carrier-locations`: the command line, one more adapter around the engine (arguments in, tables
// or JSON out). Exit codes: 0 done, 1 a user error (one plain line on stderr, never a stack trace),
// 2 bad usage (commander's message and a pointer to --help).

import { createRequire } from 'node:module';
import { Command, CommanderError } from 'commander';
import { addBuildCommand } from './cli/build.js';
import { describeError } from './cli/errors.js';
import { addHelpCommand } from './cli/help.js';
import { addLookupCommands } from './cli/lookups.js';
import { guardOutput } from './cli/output.js';
import { addServeCommand } from './cli/serve.js';
import { addValidateCommand } from './cli/validate.js';

// The package refers to itself by name (its `exports` list package.json), from dist/ and source alike.
const { version } = createRequire(import.meta.url)('carrier-locations/package.json') as { version: string };

function createProgram(): Command {
  const program = new Command('carrier-locations')
    .description('Freight-carrier locations near any US ZIP, city or state: look-ups, the HTTP API, and dataset builds.')
    .version(version)
    // Settings that the commands added below inherit.
    .exitOverride()
    .showHelpAfterError('(add --help for usage)');
  addBuildCommand(program);
  addValidateCommand(program);
  addServeCommand(program);
  addLookupCommands(program);
  addHelpCommand(program);
  return program;
}

guardOutput();
try {
  await createProgram().parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    // Help and --version end here too, with exit code 0; commander has already printed its message.
    process.exitCode = err.exitCode === 0 ? 0 : 2;
  } else {
    console.error(`error: ${describeError(err)}`);
    process.exitCode = 1;
  }
}
