// `carrier-locations validate <dataDir>`: every check of the build, nothing written. Prints the
// findings (`file:line: level: message`, or a JSON list with --json); exit 1 on an error, or on a
// warning with --strict.

import type { Command } from 'commander';
import { formatFinding } from '../../data/findings.js';
import { countFindings, DATA_DIR_HELP, mappingOption, requireDatasetDir, zipsOption } from './dataset-args.js';

interface ValidateFlags {
  strict?: boolean;
  json?: boolean;
  zips?: string;
  mapping?: string;
}

export function addValidateCommand(program: Command): void {
  program
    .command('validate')
    .summary('check a dataset without writing anything')
    .description('Check a dataset directory as build does, without writing anything. Exit 1 on errors (and on warnings with --strict).')
    .argument('<dataDir>', DATA_DIR_HELP)
    .option('--strict', 'warnings fail the check too')
    .option('--json', 'print the findings as a JSON list of { file, line, level, message }')
    .addOption(zipsOption())
    .addOption(mappingOption())
    .addHelpText('after', '\nExample:\n  carrier-locations validate ./my-carriers --strict')
    .action(async (dataDir: string, flags: ValidateFlags) => {
      requireDatasetDir(dataDir);
      // Loaded here, not at the top: the look-ups need none of the build's code.
      const { checkDataset } = await import('../../data/index.js');
      const { findings } = checkDataset(dataDir, { zipFile: flags.zips, mapping: flags.mapping });
      const count = countFindings(findings);
      const failedOnWarnings = count.errors === 0 && flags.strict === true && count.warnings > 0;
      if (flags.json) console.log(JSON.stringify(findings));
      else {
        for (const finding of findings) console.log(formatFinding(finding));
        // Errors say why the check failed; warnings alone fail it only under --strict, which the count alone does not say.
        console.log(`${dataDir}: ${count.text}${failedOnWarnings ? ' (--strict: warnings fail the check)' : ''}`);
      }
      if (count.errors > 0 || failedOnWarnings) process.exitCode = 1;
    });
}
