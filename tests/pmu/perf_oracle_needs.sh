# Sourced by the perf-oracle tests on an injected PMU (after tests/lib.sh): skips without perf, without the fake PMU
# ($FAKE, set here), in a sanitizer build (perf cannot load the sanitized preload) or without a private mount
# namespace (not root: the fixture sysfs is bind-mounted over the real one for perf).
FAKE="$PMC_BUILD_DIR/tests/perf/fake_pmu.so"
command -v perf >/dev/null || skip "no perf"
[ -f "$FAKE" ] || skip "no fake PMU ($FAKE)"
sanitized_build && skip "a sanitizer build: perf cannot load the sanitized fake_pmu.so"
unshare -m true 2>/dev/null || skip "no private mount namespace here (needs root)"
