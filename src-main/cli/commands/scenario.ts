// `countersign scenario run|validate|list`: scenarios (docs/testing-your-endpoint.md,
// "Scenarios"). A run happens inside the service the command reaches (target.ts), on
// its test clock; this file reads and checks the file, shows each step, writes JUnit,
// and exits 0 when every step passed, 1 when one did not, 2 for a bad file or option,
// 3 when Countersign or the endpoint could not be reached.
import { existsSync } from 'node:fs';
import { Command, Option } from 'commander';
import { defineCommand, type CommandFactory } from '../define.js';
import { CliError, EXIT, usageError } from '../exit-codes.js';
import { readInput } from '../read-input.js';
import { apiFailure, resolveTarget, withTargetOptions, type TargetOptions } from '../target.js';
import { writeJunit } from '../junit.js';
import { scenarioJunit, scenarioReport } from '../scenario-report.js';
import { scenarioSchema, type Scenario } from '../../backend/scenarios/schema.js';
import type { ScenarioListing, ScenarioRun } from '@shared/scenario-types.js';

interface RunOptions extends TargetOptions {
  target?: string;
  secret?: string;
  junit?: string;
}

/** Reads and checks a scenario file; each problem names where in the file it is. */
async function readScenario(path: string): Promise<{ scenario?: Scenario; problems: string[] }> {
  let json: unknown;
  try {
    json = JSON.parse((await readInput(path)).toString('utf8'));
  } catch (err) {
    if (err instanceof CliError) throw err;
    return { problems: [`${path} is not JSON: ${(err as Error).message}`] };
  }
  const parsed = scenarioSchema.safeParse(json);
  if (parsed.success) return { scenario: parsed.data, problems: [] };
  return { problems: parsed.error.issues.map((i) => `${i.path.join('.') || '(the file)'}: ${i.message}`) };
}

const runCommand = defineCommand<RunOptions>(
  (cmd) =>
    withTargetOptions(
      cmd
        .name('run')
        .summary('run a scenario on the test clock and check its expectations')
        .argument('<file-or-name>', 'a scenario file (JSON), - for stdin, or the name of a shipped one (see "scenario list")')
        .option('--target <url>', 'send to your endpoint instead of an inbox of the built-in receiver')
        .addOption(
          new Option('--secret <whsec>', 'the secret your endpoint verifies with (with --target)').env('COUNTERSIGN_WEBHOOK_SECRET'),
        )
        .option('--junit <file>', 'also write the result as a JUnit XML report, one case a step'),
    ).addHelpText(
      'after',
      '\nExamples:\n  countersign scenario run lease-signing\n  countersign scenario run my.json --target http://127.0.0.1:3000/webhooks --secret whsec_… --junit scenario.xml\n',
    ),
  async ({ out }, [what], opts) => {
    if (opts.target && !opts.secret) throw usageError('--target needs --secret (or COUNTERSIGN_WEBHOOK_SECRET)');
    if (opts.secret && !opts.target) throw usageError('--secret goes with --target');
    const isFile = what === '-' || existsSync(what) || what.endsWith('.json');
    let body: Record<string, unknown>;
    if (isFile) {
      const { scenario, problems } = await readScenario(what);
      if (!scenario) throw usageError(`${what} is not a valid scenario:\n  ${problems.join('\n  ')}`);
      body = { scenario };
    } else body = { name: what };
    if (opts.target) body.target = { url: opts.target, secret: opts.secret };
    const target = await resolveTarget(opts);
    try {
      out.note(`Running ${isFile ? what : `the shipped scenario ${what}`} on ${target.description}…`);
      const answer = await target.request('POST', '/v2/test_helpers/scenarios/runs', body, 300_000);
      if (answer.status === 404 && !isFile) throw usageError(`no shipped scenario is named "${what}" (see countersign scenario list)`);
      if (answer.status === 422)
        throw usageError(`the service refused the scenario: ${JSON.stringify((answer.body as { error?: unknown })?.error)}`);
      if (answer.status !== 201) throw apiFailure(answer, 'the scenario run');
      const run = answer.body as ScenarioRun;
      if (opts.junit) await writeJunit(opts.junit, scenarioJunit(run));
      out.result(run, () => scenarioReport(run));
      return run.passed ? EXIT.ok : EXIT.failed;
    } finally {
      await target.close();
    }
  },
);

const validateCommand = defineCommand(
  (cmd) => cmd.name('validate').summary('check a scenario file against the schema, offline').argument('<file>', 'a scenario file, or -'),
  async ({ out }, [file]) => {
    const { scenario, problems } = await readScenario(file);
    out.result({ valid: !!scenario, problems }, () =>
      scenario ? `${file}: a valid scenario, ${scenario.steps.length} steps` : `${file}:\n  ${problems.join('\n  ')}`,
    );
    return scenario ? EXIT.ok : EXIT.failed;
  },
);

const listCommand = defineCommand<TargetOptions>(
  (cmd) => withTargetOptions(cmd.name('list').summary('the scenarios and demo packs that ship with Countersign')),
  async ({ out }, _args, opts) => {
    const target = await resolveTarget(opts);
    try {
      const { data } = await target.call<{ data: ScenarioListing[] }>('GET', '/v2/test_helpers/scenarios');
      out.result(data, () =>
        data.map((s) => `${s.name.padEnd(20)} ${s.source === 'demo_pack' ? '(demo pack) ' : ''}${s.description}`).join('\n'),
      );
      return EXIT.ok;
    } finally {
      await target.close();
    }
  },
);

export const scenarioCommand: CommandFactory = (host) =>
  new Command('scenario')
    .summary('run scenarios: steps on the test clock with expectations, for CI')
    .description(
      'Scenarios are small JSON files of steps and expectations (docs/testing-your-endpoint.md, schema in docs/scenario.schema.json).',
    )
    .addCommand(runCommand(host))
    .addCommand(validateCommand(host))
    .addCommand(listCommand(host));
