#!/usr/bin/env bash
# Counts the instructions one call of an in-process benchmark executes,
# garbage collection included, under valgrind (apt-get install valgrind):
#
#   bench/instructions.sh TESTBINARY BENCH...
#
#   cd bench && go test -c -o /tmp/impls.test ./impls
#   ./instructions.sh /tmp/impls.test 'BenchmarkRESTParts/part=toolgen$' 'BenchmarkRESTParts/part=handwritten$'
#
# Each benchmark runs twice, for 10,000 and for 30,000 calls, with
# GOMAXPROCS=1 (one thread runs the program, as valgrind does anyway, so
# that the count does not depend on how threads interleave); the count a
# call is the difference over the 20,000 calls between, which leaves out
# start-up and the benchmark's set-up. Unlike a time on a shared machine,
# the count repeats within about 1% from run to run; it says nothing of
# cache misses or of what waiting costs, so it complements the timed
# benchmarks rather than replacing them (BENCHMARKS.md says where each
# is used).
set -euo pipefail
if (($# < 2)); then
	sed -n '2,9p' "$0" >&2
	exit 2
fi
bin=$1
shift
count() { # count BENCH CALLS
	GOMAXPROCS=1 valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
		"$bin" -test.run '^$' -test.bench "$1" -test.benchtime "$2x" 2>&1 >/dev/null |
		awk '/I +refs:/ { gsub(",", "", $4); print $4 }'
}
for bench in "$@"; do
	a=$(count "$bench" 10000)
	b=$(count "$bench" 30000)
	if [[ -z $a || -z $b ]]; then
		echo "$bench: no count (does the benchmark exist?)" >&2
		exit 1
	fi
	printf '%s\t%d instructions/call\n' "$bench" $(((b - a) / 20000))
done
