// What a scenario run answers (POST /v2/test_helpers/scenarios/runs): each step's
// outcome beside the deliveries it caused, and whether every expectation held. The
// CLI prints it and writes JUnit from it; the console shows it.
export type ScenarioStepOutcome = 'passed' | 'failed' | 'not_run';

export interface ScenarioStepResult {
  /** 1-based, as a person counts the steps of the file. */
  index: number;
  /** The step's `do`. */
  do: string;
  /** One line saying what the step did or, for an expectation, what it found. */
  summary: string;
  outcome: ScenarioStepOutcome;
  /** Why an expectation failed or a step could not be done, one reason a line. */
  problems: string[];
  /** The deliveries (webhook-ids) this step created or that made attempts during it. */
  delivery_ids: string[];
  /** The test clock's time when the step ended. */
  at: string;
}

export interface ScenarioRun {
  object: 'scenario_run';
  name: string;
  passed: boolean;
  /** "3 of 3 expectations held", or why the run stopped. */
  summary: string;
  started_at: string;
  /** Wall-clock duration of the run. */
  duration_ms: number;
  /** Where the deliveries went: the built-in receiver's inbox, or the user's URL. */
  endpoint: { url: string; inbox_id: string | null; subscription_id: string };
  /** The scenario's document names and the ids they were given. */
  documents: Record<string, string>;
  steps: ScenarioStepResult[];
}

/** What loading a demo pack made (POST /v2/test_helpers/demo_packs/…/load). */
export interface PackLoad {
  object: 'demo_pack_load';
  name: string;
  inbox_ids: string[];
  document_ids: string[];
  run: ScenarioRun | null;
}

export interface ScenarioListing {
  name: string;
  description: string;
  /** Where it comes from: a shipped scenario file, or a demo pack's scenario. */
  source: 'scenario' | 'demo_pack';
}
