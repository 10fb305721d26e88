#!/usr/bin/env bash
# Lectern's libFuzzer targets (docs/fuzzing.md). Run from anywhere; `make fuzz` runs `fuzz.sh run`.
#
#   Fuzz/fuzz.sh build [TARGET…]          build the fuzzers (Fuzz/.build/debug/<target>)
#   Fuzz/fuzz.sh run [TARGET…]            build, fuzz each for $FUZZ_SECONDS (default 60), merge new
#                                         inputs into Fuzz/Corpus/<target>/, print a summary
#   Fuzz/fuzz.sh repro TARGET FILE…       run the inputs once (a crash artifact, a regression)
#   Fuzz/fuzz.sh minimize TARGET FILE     -minimize_crash=1: writes FILE.min
#   Fuzz/fuzz.sh cmin [TARGET…]           shrink the committed corpus to the inputs that add coverage
#   Fuzz/fuzz.sh seeds                    (re)write seeds from the repository's test inputs
#
# Environment: FUZZ_SECONDS (per target), FUZZ_JOBS (swift build -j, default 1), SWIFT.
# Crash and timeout artifacts go to Fuzz/.build/runs/<target>/artifacts/; `run` exits 1 if any.
set -euo pipefail

FUZZ_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ALL_TARGETS=(fuzz-front-matter fuzz-sanitizer fuzz-signature-headers fuzz-activity fuzz-static-head)
SWIFT=${SWIFT:-swift}
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
FUZZ_JOBS=${FUZZ_JOBS:-1}
BIN_DIR=$FUZZ_DIR/.build/debug
RUNS_DIR=$FUZZ_DIR/.build/runs

# Swift's crash backtracer reads the crashed stack from a helper thread, which ASan reports as a
# stack-buffer-underflow of its own; without it a Swift trap is a plain deadly signal to libFuzzer.
export SWIFT_BACKTRACE=enable=no
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$FUZZ_DIR/lsan.supp:print_suppressions=0}

# Longest input per target: front matter and remote HTML are small in practice, header values
# shorter still; activities are capped well under the inbox's 256 KiB to keep runs fast.
max_len() {
    case $1 in
        fuzz-front-matter) echo 16384 ;;
        fuzz-sanitizer) echo 16384 ;;
        fuzz-signature-headers) echo 4096 ;;
        fuzz-activity) echo 65536 ;;
        fuzz-static-head) echo 9000 ;;
        *) echo "unknown target $1 (known: ${ALL_TARGETS[*]})" >&2; exit 2 ;;
    esac
}

common_flags() {  # TARGET
    echo "-max_len=$(max_len "$1") -rss_limit_mb=2048 -timeout=5 -dict=$FUZZ_DIR/Dictionaries/$1.dict"
}

# Builds the given targets (default: all), one product at a time, so a module that does not
# compile right now (someone is editing it) only costs the fuzzers that need it. Sets BUILT.
build() {
    local targets=("$@") target log status failed=()
    [ ${#targets[@]} -gt 0 ] || targets=("${ALL_TARGETS[@]}")
    mkdir -p "$FUZZ_DIR/.build"
    echo "== building ${targets[*]} (swift build -j $FUZZ_JOBS in Fuzz/; the first build takes a few minutes)"
    BUILT=()
    for target in "${targets[@]}"; do
        log=$FUZZ_DIR/.build/build-$target.log status=0
        # -sanitize=fuzzer adds coverage and links libFuzzer; C code (libyaml in Yams) gets the same
        # through -Xcc. -enable-testing lets the harnesses `@testable import` internal APIs.
        "$SWIFT" build --package-path "$FUZZ_DIR" --product "$target" -c debug -j "$FUZZ_JOBS" \
            -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -enable-testing \
            -Xcc -fsanitize=fuzzer-no-link,address >"$log" 2>&1 || status=$?
        if [ "$status" -eq 0 ]; then
            BUILT+=("$target")
        else
            failed+=("$target")
            # (ld.gold warns about every ASan helper symbol; those lines are noise.)
            grep -v "Cannot export local symbol" "$log" | grep -E "error" | sort -u | head -5 >&2
            echo "error: $target did not build (log: ${log#"$FUZZ_DIR"/})" >&2
        fi
    done
    [ ${#failed[@]} -eq 0 ] || return 1
}

# Rewrites Fuzz/Corpus/TARGET as the inputs of it and of EXTRA… that libFuzzer's -merge=1 keeps
# (a minimal set with the same edge coverage). Seeds keep their names; other inputs are named by their
# SHA-1, as libFuzzer writes them.
merge() {  # TARGET [EXTRA…]
    local target=$1; shift
    local corpus=$FUZZ_DIR/Corpus/$target fresh=$RUNS_DIR/$target/merged kept file sum seed
    rm -rf "$fresh" && mkdir -p "$fresh"
    # shellcheck disable=SC2046
    # -use_counters=0: keep inputs for the edges they reach, not for hit counts (a few hundred
    # files per target instead of a thousand); fuzzing itself rediscovers the counts in seconds.
    if ! "$BIN_DIR/$target" $(common_flags "$target") -use_counters=0 -merge=1 "$fresh" "$corpus" "$@" \
        >"$RUNS_DIR/$target/merge.log" 2>&1 || [ -z "$(ls -A "$fresh")" ]; then
        echo "$target: merge failed (see ${RUNS_DIR#"$FUZZ_DIR"/}/$target/merge.log); corpus unchanged" >&2
        return 0
    fi
    kept=$(mktemp -d)
    for file in "$fresh"/*; do
        sum=$(sha1sum "$file" | cut -d' ' -f1)
        seed=$(find "$corpus" -name "seed-*-${sum:0:8}" | head -1)
        if [ -n "$seed" ]; then cp "$seed" "$kept/"; else cp "$file" "$kept/$sum"; fi
    done
    echo "$target: $(find "$corpus" -type f | wc -l) → $(find "$kept" -type f | wc -l) files"
    rm -rf "$corpus" && mv "$kept" "$corpus" && chmod 755 "$corpus"
}

run_one() {  # TARGET → one summary line in $SUMMARY
    local target=$1 work=$RUNS_DIR/$1 corpus=$FUZZ_DIR/Corpus/$1
    rm -rf "$work/new"
    mkdir -p "$work/new" "$work/artifacts" "$corpus"
    local before status=0
    before=$(find "$corpus" -type f | wc -l)
    touch "$work/started"
    echo "== $target: ${FUZZ_SECONDS}s (log: ${work#"$FUZZ_DIR"/}/fuzz.log)"
    # New inputs go to $work/new (the first folder); the committed corpus is read as seeds.
    local started=$SECONDS elapsed
    # shellcheck disable=SC2046
    "$BIN_DIR/$target" $(common_flags "$target") -max_total_time="$FUZZ_SECONDS" -print_final_stats=1 \
        -artifact_prefix="$work/artifacts/" "$work/new" "$corpus" >"$work/fuzz.log" 2>&1 || status=$?
    elapsed=$((SECONDS - started))  # shorter than FUZZ_SECONDS when it stopped at a finding
    # The committed corpus becomes the smallest set of old and new inputs with the same coverage.
    merge "$target" "$work/new" >/dev/null
    local after execs rate cov ft artifacts
    after=$(find "$corpus" -type f | wc -l)
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/fuzz.log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work/fuzz.log" | tail -1)
    cov=$(grep -oE "cov: [0-9]+" "$work/fuzz.log" | tail -1 | cut -d' ' -f2)
    ft=$(grep -oE "ft: [0-9]+" "$work/fuzz.log" | tail -1 | cut -d' ' -f2)
    artifacts=$(find "$work/artifacts" -type f -newer "$work/started" 2>/dev/null | sort | tr '\n' ' ')
    printf '%-24s %6s %10s %8s %6s %7s %6s  %s\n' "$target" "$elapsed" "${execs:-?}" "${rate:-?}" "${cov:-?}" \
        "${ft:-?}" "+$((after - before))" "${artifacts:-none}" >>"$SUMMARY"
    if [ -n "$artifacts" ] || [ "$status" -ne 0 ]; then
        FINDINGS=1
        grep -E "^==[0-9]+==ERROR|Fatal error|deadly signal|ALARM|out-of-memory|SUMMARY" "$work/fuzz.log" | head -5 | sed 's/^/   /'
    fi
}

run() {
    local targets=("$@") target
    [ ${#targets[@]} -gt 0 ] || targets=("${ALL_TARGETS[@]}")
    for target in "${targets[@]}"; do max_len "$target" >/dev/null; done
    SUMMARY=$(mktemp)
    FINDINGS=0
    build "${targets[@]}" || FINDINGS=1
    for target in "${targets[@]}"; do
        if [[ " ${BUILT[*]} " == *" $target "* ]]; then
            run_one "$target"
        else
            printf '%-24s %6s %10s %8s %6s %7s %6s  %s\n' "$target" - - - - - - "did not build" >>"$SUMMARY"
        fi
    done
    echo
    printf '%-24s %6s %10s %8s %6s %7s %6s  %s\n' target seconds executions exec/s cov ft corpus findings
    cat "$SUMMARY"
    rm -f "$SUMMARY"
    if [ "$FINDINGS" -ne 0 ]; then
        echo "findings or build failures above: reproduce with Fuzz/fuzz.sh repro TARGET ARTIFACT, shrink with Fuzz/fuzz.sh minimize"
        exit 1
    fi
}

case ${1:-run} in
    build) shift; build "$@" ;;
    run) shift || true; run "$@" ;;
    repro)
        target=$2; shift 2
        # shellcheck disable=SC2046
        "$BIN_DIR/$target" $(common_flags "$target") -runs=1 "$@" ;;
    minimize)
        target=$2 file=$3
        # shellcheck disable=SC2046
        "$BIN_DIR/$target" $(common_flags "$target") -minimize_crash=1 -max_total_time=120 \
            -exact_artifact_path="$file.min" "$file"
        echo "minimized: $file.min ($(wc -c <"$file.min") bytes)" ;;
    cmin)
        shift
        targets=("$@")
        [ ${#targets[@]} -gt 0 ] || targets=("${ALL_TARGETS[@]}")
        for target in "${targets[@]}"; do merge "$target"; done ;;
    seeds) python3 "$FUZZ_DIR/seeds.py" ;;
    *) sed -n '2,14p' "$0"; exit 2 ;;
esac
