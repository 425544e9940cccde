# tests/lib/suite.sh — what the shell suites that generate and run models share
# (sourced from the checkout's root, after `set -u`): suite_start NAME sets
#   ODEGEN   the translator, an absolute path ($ODEGEN or build/odegen; exits 1
#            when it is not built)
#   T        a fresh temporary folder, removed at exit together with the
#            suite's background jobs (a killed runner, an mpirun)
#   failed, passed and fail MESSAGE / ok to count the checks;
# and lets mpirun run as root and oversubscribed (the CI runs as root).
suite_start() {
    ODEGEN=${ODEGEN:-build/odegen}
    [ -x "$ODEGEN" ] || { echo "tests/$1: $ODEGEN not found (make build/odegen)"; exit 1; }
    ODEGEN=$(cd "$(dirname "$ODEGEN")" && pwd)/$(basename "$ODEGEN")
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
    T=$(mktemp -d "${TMPDIR:-/tmp}/odegen-$1.XXXXXX") || exit 1
    trap suite_cleanup EXIT
    failed=0
    passed=0
}
suite_cleanup() { for p in $(jobs -p); do kill -9 "$p" 2>/dev/null; done; rm -rf "$T"; }
fail() { echo "FAIL: $*" >&2; failed=$((failed + 1)); }
ok() { passed=$((passed + 1)); }
