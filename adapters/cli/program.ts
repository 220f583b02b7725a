// The command line's program: every command and flag, declared once (the CLI runs it, and
// docs/cli.md's table of flags is made from it by `npm run docs`).

import { createRequire } from 'node:module';
import { Command } from 'commander';
import { addBuildCommand } from './build.js';
import { addHelpCommand } from './help.js';
import { addLookupCommands } from './lookups.js';
import { addServeCommand } from './serve.js';
import { addValidateCommand } from './validate.js';

// The package refers to itself by name (its `exports` list package.json), from dist/ and source alike.
const { version } = createRequire(import.meta.url)('carrier-locations/package.json') as { version: string };

export function createProgram(): Command {
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
