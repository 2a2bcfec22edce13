package toolsyaml

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// syntaxError places a YAML syntax error (from decoding data) at the line
// where the parser stopped, and quotes that line.
//
// yaml.v3's errors carry no structured position, only "line N" in their
// text, and for most parser errors N is the line where the enclosing
// collection starts (its context mark), not where the parser stopped (its
// problem mark, which it does not report): a key indented wrongly on line
// 6 of a list item that starts on line 3 reads "line 2: did not find
// expected key" (0-based, as yaml.v3 does not add one to a parser error's
// line). The line where the parser stopped is found by decoding prefixes
// of the file: it is the first line from the reported one on such that the
// file cut after it fails with the same message. A prefix of a block YAML
// document that holds no error decodes, so a binary search finds it in a
// few decodes, and only on a file that does not parse (of up to
// maxSearchBytes).
func syntaxError(data []byte, err error) (Pos, string) {
	msg := yamlErrorMsg(err)
	reported := yamlErrorLine(err)
	if reported == 0 {
		return Pos{1, 1}, msg
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	if reported > len(lines) {
		return Pos{reported, 1}, msg + " at the end of the file"
	}
	ends := make([]int, len(lines)) // ends[i]: the length of the file cut after line i+1
	n := 0
	for i, l := range lines {
		n += len(l)
		ends[i] = n
	}
	fails := func(line int) bool {
		var doc yaml.Node
		err := yaml.NewDecoder(bytes.NewReader(data[:ends[line-1]])).Decode(&doc)
		return err != nil && yamlErrorMsg(err) == msg
	}
	stop := reported
	if len(data) <= maxSearchBytes {
		stop += sort.Search(len(lines)-reported+1, func(i int) bool { return fails(reported + i) })
		if stop > len(lines) || !fails(stop) {
			stop = reported // not found: keep what yaml.v3 said
		}
	}
	text := strings.TrimRight(string(lines[stop-1]), "\r\n")
	col := 1 + len(text) - len(strings.TrimLeft(text, " \t"))
	out := msg + " at " + quoteLine(text)
	switch {
	case stop > reported && indentationError(msg):
		out += fmt.Sprintf(" (check its indentation against the collection that starts at line %d)", reported)
	case stop > reported:
		out += fmt.Sprintf(" (in the collection that starts at line %d)", reported)
	}
	return Pos{stop, col}, out
}

// maxSearchBytes bounds the files whose syntax errors are placed by
// decoding prefixes (some twenty decodes of up to the whole file): a
// larger one, far beyond any real tools.yaml, keeps the line yaml.v3
// reports, so that its error still comes at once.
const maxSearchBytes = 512 << 10

// indentationError reports whether msg is one of yaml.v3's parser errors
// that a line indented wrongly in a block collection gives.
func indentationError(msg string) bool {
	return msg == "did not find expected key" || msg == "did not find expected '-' indicator"
}

// quoteLine quotes a line of the file as Go would, its indentation kept
// (which is what a syntax error is often about), cut to 100 characters.
func quoteLine(s string) string {
	const max = 100
	if utf8.RuneCountInString(s) > max {
		s = string([]rune(s)[:max]) + "…"
	}
	return strconv.Quote(s)
}

// yamlErrorLine pulls "line N" out of yaml.v3's syntax errors, 0 when there
// is none. yaml.v3 adds one to the 0-based line of scanner errors but not
// to that of parser errors (decode.go, parser.fail), so the line of a
// parser error is corrected here.
func yamlErrorLine(err error) int {
	m := yamlLine.FindStringSubmatch(err.Error())
	if m == nil {
		return 0
	}
	line, _ := strconv.Atoi(m[1])
	for _, p := range yamlParserErrors {
		if strings.HasSuffix(err.Error(), p) {
			line++
			break
		}
	}
	return line
}

// yamlParserErrors are the messages of yaml.v3's parser (parserc.go), as
// opposed to its scanner.
var yamlParserErrors = []string{
	"did not find expected ',' or ']'",
	"did not find expected ',' or '}'",
	"did not find expected <document start>",
	"did not find expected <stream-start>",
	"did not find expected '-' indicator",
	"did not find expected key",
	"did not find expected node content",
	"found duplicate %YAML directive",
	"found duplicate %TAG directive",
	"found incompatible YAML document",
	"found undefined tag handle",
}

var yamlLine = regexp.MustCompile(`line (\d+)`)

func yamlErrorMsg(err error) string {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	return yamlLinePrefix.ReplaceAllString(msg, "")
}

var yamlLinePrefix = regexp.MustCompile(`^line \d+: `)
