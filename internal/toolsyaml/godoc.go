package toolsyaml

import (
	"strings"
	"unicode"
)

// goDoc is the doc comment of the Go declaration name, written as Go doc
// comments are: a sentence that starts with the name and ends with a
// period. It is built from the schema's description ("Who can see a
// bookmark." → "BookmarkVisibility says who can see a bookmark.", "A
// postal address." → "Address is a postal address."); without one, it is
// fallback.
func goDoc(name, desc, fallback string) string {
	desc = strings.TrimSpace(desc)
	if desc == "" {
		return fallback
	}
	first, _, _ := strings.Cut(desc, " ")
	first = strings.TrimRightFunc(first, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	var s string
	switch {
	case first == name:
		s = desc
	case questionWords[first]:
		s = name + " says " + lowerFirst(desc)
	case verbs[first]:
		s = name + " " + lowerFirst(desc)
	default:
		s = name + " is " + lowerFirst(desc)
	}
	if !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "!") && !strings.HasSuffix(s, "?") {
		s += "."
	}
	return s
}

// questionWords start a description that says what a value tells: "Who
// can see it." is what a BookmarkVisibility says.
var questionWords = map[string]bool{
	"Who": true, "What": true, "Whether": true, "How": true, "When": true, "Where": true, "Which": true, "Why": true, "If": true,
}

// verbs start a description that already reads as a sentence about the
// type: "Represents a bookmark." is what a Bookmark does.
var verbs = map[string]bool{
	"Represents": true, "Describes": true, "Holds": true, "Contains": true, "Identifies": true, "Lists": true,
	"Names": true, "Tells": true, "Carries": true, "Defines": true, "Specifies": true, "Selects": true,
	"Sets": true, "Controls": true, "Configures": true, "Says": true, "Returns": true, "Gives": true,
	"Stores": true, "Records": true, "Marks": true, "Counts": true, "Measures": true, "Locates": true,
}

// lowerFirst lower-cases a sentence's first letter, unless it starts an
// acronym or a name ("ISO ...", "iOS").
func lowerFirst(s string) string {
	r := []rune(s)
	if len(r) == 0 || !unicode.IsUpper(r[0]) || len(r) > 1 && unicode.IsUpper(r[1]) {
		return s
	}
	r[0] = unicode.ToLower(r[0])
	return string(r)
}
