#!/bin/sh
# One profile in several fight setups, one table: a column per scenario, each cell DPS ± error and the rank.
# Run from the repository root; add --local to run on this machine (simc from PATH, SIMJOB_SIMC or --simc).
set -eu
# The three raid presets (Patchwerk 1 target, Patchwerk 5 targets, DungeonSlice), each with target_error=0.5:
simjob submit examples/fury-profilesets.simc --scenarios raid --scenario target_error=0.5 --wait "$@"
# Your own: every combination of the values given (2 fight styles x 2 target counts = 4 jobs):
simjob submit examples/fury-profilesets.simc --scenario fight_style=Patchwerk,DungeonSlice \
  --scenario desired_targets=1,5 --wait "$@"
