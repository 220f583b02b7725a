#!/usr/bin/env node
// `carrier-locations`: the command line, one more adapter around the engine (arguments in, tables
// or JSON out). Exit codes: 0 done, 1 a user error (one plain line on stderr, never a stack trace),
// 2 bad usage (commander's message and a pointer to --help).

import { CommanderError } from 'commander';
import { describeError } from './describe-error.js';
import { guardOutput } from './cli/output.js';
import { createProgram } from './cli/program.js';

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
