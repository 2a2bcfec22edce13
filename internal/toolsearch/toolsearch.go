// Package toolsearch is a ranked full-text index of tools: BM25F over
// weighted fields (a tool's name, title, description, and its parameters'
// names and descriptions), with words split at snake_case and camelCase
// boundaries, lowercased and stemmed. The runtime builds one per tool list
// (runtime.Server.SearchTools); it knows nothing of tools beyond the text
// it is given.
package toolsearch

import (
	"math"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Field is one field of a document: its text and how much a word found in
// it counts. A document's Name field (a tool's name) counts once more: a
// query that names more of its words ranks it higher, unsaturated (see
// Search).
type Field struct {
	Text   string
	Weight float64
	Name   bool
}

// Index is the index of a list of documents, immutable once built and
// safe for concurrent use.
type Index struct {
	postings map[string][]posting // by term, by document in order
	lengths  []float64            // each document's weighted length
	avgLen   float64
	names    [][]string // each document's name terms
	pool     sync.Pool  // *scratch
}

type posting struct {
	doc int
	tf  float64 // weighted term frequency
}

// BM25 parameters: the usual ones; nameBonus weighs a name's words.
const (
	k1        = 1.2
	b         = 0.75
	nameBonus = 2.0
)

// New indexes docs; a document is its fields.
func New(docs [][]Field) *Index {
	ix := &Index{postings: map[string][]posting{}, lengths: make([]float64, len(docs)), names: make([][]string, len(docs))}
	var total float64
	tf := map[string]float64{}
	for d, fields := range docs {
		clear(tf)
		for _, f := range fields {
			for _, t := range Terms(f.Text) {
				tf[t] += f.Weight
				ix.lengths[d] += f.Weight
				if f.Name && !slices.Contains(ix.names[d], t) {
					ix.names[d] = append(ix.names[d], t)
				}
			}
		}
		total += ix.lengths[d]
		for t, n := range tf {
			ix.postings[t] = append(ix.postings[t], posting{d, n})
		}
	}
	if len(docs) > 0 {
		ix.avgLen = total / float64(len(docs))
	}
	return ix
}

// Hit is a document that matched a query, and its score.
type Hit struct {
	Doc   int
	Score float64
}

// Search ranks the documents that match any term of query, best first
// (ties by document order), and returns those keep accepts (nil keeps
// every one), at most limit of them.
//
// The scores are summed in a dense slice (one float a document, from a
// pool) rather than a map, and the best are kept in a list of at most
// limit, in order, as the matches are read: a query's common word may
// match a sixth of 10,000 tools, and sorting them all was most of its
// time (BenchmarkSearchTools in the runtime).
func (ix *Index) Search(query string, limit int, keep func(doc int) bool) []Hit {
	if limit <= 0 || len(ix.lengths) == 0 {
		return nil
	}
	sc := ix.scratch()
	defer ix.pool.Put(sc)
	n := float64(len(ix.lengths))
	var seen []string
	for _, qt := range expand(Terms(query)) {
		t := qt.term
		if slices.Contains(seen, t) {
			continue
		}
		seen = append(seen, t)
		ps := ix.postings[t]
		if len(ps) == 0 {
			continue
		}
		idf := qt.weight * math.Log(1+(n-float64(len(ps))+0.5)/(float64(len(ps))+0.5))
		for _, p := range ps {
			norm := p.tf * (k1 + 1) / (p.tf + k1*(1-b+b*ix.lengths[p.doc]/ix.avgLen))
			score := idf * norm
			if names := ix.names[p.doc]; slices.Contains(names, t) {
				// A word of the tool's name: what it does, to what. Its
				// share of the name counts beside BM25's saturated
				// frequency, so that "refund an order" finds refund_order
				// before a tool that only mentions orders often.
				score += nameBonus * idf / float64(len(names))
			}
			if sc.scores[p.doc] == 0 {
				sc.touched = append(sc.touched, p.doc)
			}
			sc.scores[p.doc] += score
		}
	}
	var best []Hit // at most limit, best first
	for _, d := range sc.touched {
		h := Hit{d, sc.scores[d]}
		sc.scores[d] = 0 // the scratch is clean for the next search
		if len(best) == limit && !better(h, best[limit-1]) {
			continue
		}
		if keep != nil && !keep(d) {
			continue
		}
		i, _ := slices.BinarySearchFunc(best, h, func(x, y Hit) int {
			if better(x, y) {
				return -1
			}
			return 1
		})
		if len(best) < limit {
			best = append(best, Hit{})
		}
		copy(best[i+1:], best[i:len(best)-1])
		best[i] = h
	}
	sc.touched = sc.touched[:0]
	if best == nil {
		best = []Hit{}
	}
	return best
}

// queryTerm is a term of a query, and how much it counts: a word the user
// wrote counts whole, one it stands for (synonyms) half.
type queryTerm struct {
	term   string
	weight float64
}

// synonyms are the words users and agents write for what tool catalogs
// name otherwise: the verbs of reading, making, changing and removing. A
// query's word brings its synonyms in at half weight. Both sides are
// stemmed as the index stems (stemmedSynonyms).
var synonyms = map[string][]string{
	"open":    {"create"},
	"new":     {"create"},
	"make":    {"create"},
	"add":     {"create"},
	"show":    {"get", "list"},
	"view":    {"get", "list"},
	"read":    {"get"},
	"fetch":   {"get"},
	"see":     {"get", "list"},
	"find":    {"search"},
	"look":    {"search", "get"},
	"remove":  {"delete"},
	"change":  {"update"},
	"edit":    {"update"},
	"modify":  {"update"},
	"set":     {"update"},
	"approve": {"review"},
	"logged":  {"authenticated"},
}

// stemmedSynonyms is synonyms with every word stemmed.
var stemmedSynonyms = func() map[string][]string {
	m := make(map[string][]string, len(synonyms))
	for k, vs := range synonyms {
		for _, v := range vs {
			m[Stem(k)] = append(m[Stem(k)], Stem(v))
		}
	}
	return m
}()

// expand is terms with the synonyms of each after it.
func expand(terms []string) []queryTerm {
	out := make([]queryTerm, 0, 2*len(terms))
	for _, t := range terms {
		out = append(out, queryTerm{t, 1})
	}
	for _, t := range terms {
		for _, syn := range stemmedSynonyms[t] {
			out = append(out, queryTerm{syn, 0.5})
		}
	}
	return out
}

// better reports whether x ranks before y: a higher score, or the same
// and an earlier document.
func better(x, y Hit) bool {
	return x.Score > y.Score || x.Score == y.Score && x.Doc < y.Doc
}

// scratch is a search's dense scores, from the index's pool.
type scratch struct {
	scores  []float64
	touched []int
}

func (ix *Index) scratch() *scratch {
	if sc, ok := ix.pool.Get().(*scratch); ok {
		return sc
	}
	return &scratch{scores: make([]float64, len(ix.lengths))}
}

// Terms splits text into the index's terms: words split at anything that
// is not a letter or a digit and at camelCase boundaries (getHTTPStatus:
// get, http, status), lowercased, stemmed, and without the commonest
// English words and single letters.
func Terms(text string) []string {
	var out []string
	for _, w := range words(text) {
		w = strings.ToLower(w)
		if stopWords[w] || utf8.RuneCountInString(w) < 2 {
			continue // a letter alone: what's, customer's
		}
		out = append(out, Stem(w))
	}
	return out
}

// words splits text at non-alphanumerics and camelCase boundaries.
func words(text string) []string {
	var out []string
	start := -1
	var prev rune
	flush := func(end int) {
		if start >= 0 && end > start {
			out = append(out, text[start:end])
		}
		start = -1
	}
	for i, r := range text {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush(i)
			prev = r
			continue
		}
		if start < 0 {
			start = i
		} else if unicode.IsUpper(r) {
			next, _ := utf8.DecodeRuneInString(text[i+utf8.RuneLen(r):])
			// fooBar: a boundary before B; HTTPServer: before S (an
			// upper case letter followed by a lower case one ends an
			// acronym).
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && unicode.IsLower(next)) {
				flush(i)
				start = i
			}
		}
		prev = r
	}
	flush(len(text))
	return out
}

// stopWords are left out of the index and of queries: they say nothing of
// what a tool does.
var stopWords = map[string]bool{
	"a": true, "an": true, "and": true, "are": true, "as": true, "at": true, "be": true, "by": true,
	"for": true, "from": true, "in": true, "is": true, "it": true, "its": true, "of": true, "on": true,
	"or": true, "that": true, "the": true, "this": true, "to": true, "with": true, "i": true, "me": true,
	"my": true, "we": true, "you": true, "your": true, "can": true, "do": true, "please": true,
}

// Stem reduces an English word, lowercased, to a stem that its other
// forms share (refunds, refunded, refunding: refund; categories:
// category), by the suffix rules of Porter's first step, which is all
// tool names and descriptions need: the same stem for a query's word and
// the catalog's.
func Stem(w string) string {
	if len(w) <= 3 {
		return w
	}
	switch {
	case strings.HasSuffix(w, "sses"):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "ies"):
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
	case strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "zes"):
		w = w[:len(w)-2] // switches, pushes, boxes: switch, push, box
	case strings.HasSuffix(w, "s"):
		w = w[:len(w)-1]
	}
	switch {
	case strings.HasSuffix(w, "eed"):
		if len(w) > 4 {
			w = w[:len(w)-1]
		}
	case strings.HasSuffix(w, "ed") && hasVowel(w[:len(w)-2]):
		w = undouble(w[:len(w)-2])
	case strings.HasSuffix(w, "ing") && hasVowel(w[:len(w)-3]) && len(w) > 5:
		w = undouble(w[:len(w)-3])
	}
	if strings.HasSuffix(w, "y") && len(w) > 3 && hasVowel(w[:len(w)-1]) {
		w = w[:len(w)-1] + "i"
	}
	return w
}

func hasVowel(s string) bool { return strings.ContainsAny(s, "aeiouy") }

// undouble drops the last letter of a stem that ends in a doubled
// consonant (stopp: stop), as "stopped" and "stop" should meet, and adds
// back the e that "creat" (created, creating) lost.
func undouble(s string) string {
	n := len(s)
	if n >= 2 && s[n-1] == s[n-2] && !strings.ContainsRune("aeioulsz", rune(s[n-1])) {
		return s[:n-1]
	}
	if strings.HasSuffix(s, "at") || strings.HasSuffix(s, "bl") || strings.HasSuffix(s, "iz") {
		return s + "e"
	}
	return s
}
