// What a test needs from the machine: a skip (with the reason) on a developer's machine that lacks it, a failure
// where the run requires it, so CI never passes by skipping. Switches, as for PostgreSQL
// (SCRUBLINE_REQUIRE_POSTGRES), Redis and the browser; .ci/run sets them all:
//   SCRUBLINE_REQUIRE_TOOLS=1     Debian tools and the bundled models ./run installs (ffmpeg, espeak-ng,
//                                 festival's US voice, PocketSphinx and its model, the adaptation packages)
//   SCRUBLINE_REQUIRE_DEV_DATA=1  the dev data (vendored at test/fixtures/dev-data)

export type RequireSwitch = 'SCRUBLINE_REQUIRE_TOOLS' | 'SCRUBLINE_REQUIRE_DEV_DATA';

/** Thrown when something a test needs is missing and the run requires it. */
export class RequirementMissingError extends Error {
  constructor(missing: string, switchName: RequireSwitch) {
    super(`${missing}, and ${switchName}=1 requires it`);
    this.name = 'RequirementMissingError';
  }
}

/**
 * `missing` is the reason a test cannot run (or false when it can): answered as node:test's `skip` value, or
 * thrown when `switchName` is set, so the test fails instead of skipping.
 */
export function required(missing: string | false | undefined | null, switchName: RequireSwitch = 'SCRUBLINE_REQUIRE_TOOLS'): string | false {
  if (!missing) return false;
  if (process.env[switchName] === '1') throw new RequirementMissingError(missing, switchName);
  return missing;
}
