#!/usr/bin/env bash
# The comparison step of pilot's GitHub Action (action.yml): this tree's benches against a base
# revision's, built and measured alternately in one job (`cargo pilot bench --against`), the
# Markdown comparison appended to the job's summary, and cargo pilot's exit code passed on (3
# on a regression, which fails the job).
#
# Read from the environment (action.yml sets them from its inputs):
#   PILOT_BASE          the base revision: a branch, tag or commit (`origin/main`)
#   PILOT_INSTRUCTIONS  `true`: count instructions under callgrind too (`--instructions`)
#   PILOT_ARGS          more flags for `cargo pilot bench`, split on spaces (`-p app --quick`)
#   GITHUB_STEP_SUMMARY the job summary's file (GitHub sets it); unset: standard output
#   GITHUB_OUTPUT       where `exit-code` and `markdown` are written for later steps, when set
# The Markdown is also left in `pilot-comparison.md` (or PILOT_MARKDOWN) for a later step, a
# pull request comment say.
set -uo pipefail

base=${PILOT_BASE:-}
if [ -z "$base" ]; then
  echo "pilot action: no base revision (the \`base\` input, PILOT_BASE)" >&2
  exit 2
fi
markdown=${PILOT_MARKDOWN:-pilot-comparison.md}

# NAME as a Markdown code span, whatever it holds (a git ref may hold backticks): control
# characters dropped, so it stays on its line, and a fence longer than any run of backticks in
# it, padded with spaces where a longer fence is needed (CommonMark's rule).
md_code() {
  local s fence='`'
  s=$(printf '%s' "$1" | tr -d '\000-\037\177')
  while [[ $s == *"$fence"* ]]; do fence+='`'; done
  if [ "$fence" = '`' ]; then
    printf '`%s`' "$s"
  else
    printf '%s %s %s' "$fence" "$s" "$fence"
  fi
}
shown=$(md_code "$base")
args=(pilot bench --against "$base" --format md)
case ${PILOT_INSTRUCTIONS:-false} in
  true) args+=(--instructions) ;;
  false | "") ;;
  *)
    echo "pilot action: \`instructions\` is \`${PILOT_INSTRUCTIONS}\`; expected true or false" >&2
    exit 2
    ;;
esac
# Extra flags, word-split as written in the workflow (no quoting inside one flag's value).
read -r -a extra <<<"${PILOT_ARGS:-}"
args+=("${extra[@]}")

echo "pilot action: cargo ${args[*]}" >&2
cargo "${args[@]}" >"$markdown"
code=$?

case $code in
  0) verdict="No regression against $shown." ;;
  3) verdict="**A regression against $shown** (cargo pilot's exit code 3): the job fails." ;;
  *) verdict="cargo pilot failed with exit code $code (1 an error, 2 usage, 130 interrupted); its log says why." ;;
esac
{
  cat "$markdown"
  echo
  echo "$verdict"
} >>"${GITHUB_STEP_SUMMARY:-/dev/stdout}"
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  {
    echo "exit-code=$code"
    echo "markdown=$markdown"
  } >>"$GITHUB_OUTPUT"
fi
exit "$code"
