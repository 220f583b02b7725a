// `carrier-locations help [command]`: commander's own help command answers an unknown command with
// the general help on stderr and no word of what was wrong; this one says it as any unknown
// command is said.

import type { Command } from 'commander';

export function addHelpCommand(program: Command): void {
  program.helpCommand(false);
  program
    .command('help')
    .argument('[command]')
    .description('display help for command')
    .helpOption(false)
    .action((name: string | undefined) => {
      if (name === undefined) program.help();
      const command = program.commands.find((c) => c.name() === name);
      if (!command) program.error(`error: unknown command '${name}'`, { exitCode: 2, code: 'commander.unknownCommand' });
      command.help();
    });
}
