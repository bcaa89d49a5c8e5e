#!/bin/sh
# A nightly CI step (the README's "In CI"): sim every profile in three fight styles, write JUnit and Markdown
# reports, and fail on a failed sim or on a regression of more than 1 % against the last good night.
#
# Needs simjob on PATH and SIMJOB_BASE_URL / SIMJOB_API_KEY set (from the CI's secrets). Settings:
#   PROFILES  the profiles, a pattern simjob expands (default: 'profiles/*.simc')
#   STATE     a folder the CI keeps between runs, e.g. a cache (default: .simjob-state)
#   CHANNEL   the build channel (default: nightly)
# Exit: 0 all sims completed and nothing regressed; otherwise simjob's exit code: 3 a sim failed or a regression,
# 8 still running at the timeout, 1 an API or network error, 4 the key.
set -u
profiles=${PROFILES:-profiles/*.simc}
state=${STATE:-.simjob-state}
mkdir -p "$state"

simjob submit "$profiles" --scenarios raid --channel "${CHANNEL:-nightly}" --wait --timeout 45m --json \
  --report junit=sims.xml --report markdown=sims.md > results.json
sims=$?

compared=0
if [ -f "$state/results.json" ]; then
  simjob compare "$state/results.json" results.json --fail-on-regression 1 \
    --report junit=compare.xml --report markdown=compare.md
  compared=$?
fi
cat sims.md compare.md 2>/dev/null >> "${GITHUB_STEP_SUMMARY:-summary.md}"

# Only a good night becomes the baseline; a bad one ends with the exit code that says why.
if [ "$sims" -ne 0 ]; then exit "$sims"; fi
if [ "$compared" -ne 0 ]; then exit "$compared"; fi
cp results.json "$state/results.json"
