// Package doctest runs the shell blocks of toolgen's Markdown (README.md,
// CONTRIBUTING.md and docs/*.md), so that the documentation cannot drift
// from the code: every ```sh, ```bash, ```shell or ```console block is run,
// in order, one bash session a file, twice, in a fresh copy of the repository
// (the files git knows, committed or not, committed anew in a git
// repository of its own). Run it with
//
//	.ci/docs                                   # every file
//	.ci/docs -run 'TestDocs/docs/oxp.md'       # one
//
// which sets TOOLGEN_DOCS=1 (without it, TestDocs skips; TestBlocks, which
// only reads the files and checks the markers below, always runs).
//
// A block that should not run as written carries a marker, an HTML
// comment on the line just before its fence, which GitHub does not show:
//
//	<!-- docs:skip REASON -->        not run (it needs what a test machine
//	                                 has not: a browser, an MCP client, a
//	                                 published module, ... REASON says)
//	<!-- docs:background [URL] -->   run in the background, as a reader
//	                                 runs a server in a second terminal;
//	                                 the next block waits until URL
//	                                 (default http://127.0.0.1:8080/health)
//	                                 answers, for up to five minutes. It is
//	                                 stopped (its whole process group) when
//	                                 the next background block starts and
//	                                 when the file ends.
//	<!-- docs:file PATH -->          before a block of any language: write
//	                                 the block to PATH (relative to the
//	                                 session's directory at that point;
//	                                 expanded in double quotes, so it may
//	                                 name a variable: "$tmp/haproxy.cfg"),
//	                                 as a reader saves it.
//
// Commands that show what they print carry it on the lines after them,
// each starting with "# → ": the command's output (stdout and stderr)
// must contain each such line, where "..." and a placeholder in angle
// brackets (<uuid>) stand for any text. Other comments are not checked.
// Commands run under "set -euo pipefail": a command that fails fails the
// file.
//
// Each file runs twice, in the same copy and with the same cache
// directory, as a reader who runs a guide again; after each run the
// copy's "git status --porcelain" must be empty. So a guide writes its
// scratch files (saved responses, logs, a history file, a config) under a
// temporary directory it makes once, before its first block that needs
// one, in a block a reader pastes too:
//
//	tmp=$(mktemp -d)    # or "export tmp=..." when a background block uses it
//
// and what must be unique in a store that outlives a run (a request's
// id) is made unique per run. Build outputs under the paths .gitignore
// names (bin/) may stay.
//
// Programs that write to the user's cache directory (the SQLite history
// of serve.Main) write to a temporary one, kept from the first run to the
// second; so does mktemp (TMPDIR is a directory of the test's). GOCACHE
// and GOMODCACHE are kept, so builds are incremental. Port 8080 must be
// free when a file starts.
package doctest
