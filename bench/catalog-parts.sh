#!/usr/bin/env bash
# Takes the generated package of N of issue #44's small tools apart
# (BENCHMARKS.md, "The issue's own tools, and the floor the contract
# sets"): it generates the package once (cmd/catalog -shape small -keep),
# then, for each variant of its tools_gen.go below, builds it ROUNDS times
# afresh (a new constant beside the file each time) and prints the go
# build's peak RSS (/usr/bin/time's %M, the largest of the go command and
# the compiler) and time.
#
#   cd bench && ./catalog-parts.sh 1000        # every variant, 3 builds each
#   cd bench && ./catalog-parts.sh 10000 floor # one variant
#   ROUNDS=1 NODWARF=1 ./catalog-parts.sh 10000 floor
#
# NODWARF=1 builds every variant without DWARF; the environment reaches
# go build (GOMEMLIMIT=1700MiB, for one).
set -euo pipefail
n=${1:-1000}
shift || true
variants=("$@")
if [[ ${#variants[@]} -eq 0 ]]; then
	variants=(as-generated no-listing no-unimplemented no-dwarf pointer-receivers incomparable pointer-receivers+incomparable floor)
fi
rounds=${ROUNDS:-3}
cd "$(dirname "$0")"
tmp=$(go run ./cmd/catalog -shape small -n "$n" -keep 2>&1 >/dev/null | sed -n 's/^modules in //p')
trap 'rm -rf "$tmp"' EXIT
src="$tmp/small$n"
echo "# $n small tools, $(go version | cut -d' ' -f3), load average $(cut -d' ' -f1-3 /proc/loadavg)"

# edit VARIANT FILE changes the generated file as the variant says.
edit() {
	local f=$2
	case $1 in
	as-generated | no-dwarf) ;;
	no-listing) # Tools lists nothing: no listing function at all.
		perl -0pi -e 's/\nfunc Tools\(h Handlers\) runtime.ToolList \{.*?\n\}\n/\nfunc Tools(h Handlers) runtime.ToolList { return nil }\n/s; s/\n\/\/ toolgenTools\d+To\d+ appends[^\n]*\nfunc toolgenTools.*?\n\}\n//sg' "$f" ;;
	no-unimplemented) # UnimplementedHandlers without its methods.
		perl -0pi -e 's/\n\/\/ [A-Za-z0-9]+ answers that the tool [^\n]*\nfunc \(UnimplementedHandlers\)[^\n]*\n(\t[^\n]*\n)*\}\n//g' "$f" ;;
	pointer-receivers)
		sed -i 's/^func (UnimplementedHandlers) /func (*UnimplementedHandlers) /' "$f" ;;
	incomparable) # each input and output type made incomparable
		perl -0pi -e 's/(\ntype [A-Za-z0-9]+(Input|Output) struct \{\n)/$1\t_ [0]func()\n/g' "$f" ;;
	pointer-receivers+incomparable)
		edit pointer-receivers "$f"
		edit incomparable "$f" ;;
	floor) # what the contract declares, and nothing listed or run
		edit no-listing "$f"
		perl -0pi -e 's/(\nfunc toolgen[A-Za-z0-9]+Handler\(ctx context.Context, h Handlers, args json.RawMessage\) \(\*runtime.Result, error\) \{\n).*?\n\}\n/$1\treturn nil, nil\n}\n/sg' "$f" ;;
	*)
		echo "unknown variant $1" >&2
		exit 2 ;;
	esac
}

for v in "${variants[@]}"; do
	dir="$tmp/$v"
	rm -rf "$dir"
	cp -r "$src" "$dir"
	edit "$v" "$dir/cat/tools_gen.go"
	flags=()
	if [[ $v == no-dwarf || ${NODWARF:-} == 1 ]]; then
		flags=(-gcflags=example.com/catalog/cat=-dwarf=false)
	fi
	line="$v:"
	for _ in $(seq "$rounds"); do
		echo "package cat; const partsNonce = \"$RANDOM$RANDOM$RANDOM\"" > "$dir/cat/nonce_parts.go"
		r=$(cd "$dir" && GOWORK="$dir/go.work" /usr/bin/time -f '%M %e' go build "${flags[@]}" ./cat 2>&1 | tail -1)
		line+=" $((${r% *} / 1024)) MiB ${r#* } s,"
	done
	echo "${line%,}"
	rm -rf "$dir"
done
