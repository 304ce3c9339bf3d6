package toolsearch

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Bounds on what a server's text costs the index: its fields are
// untrusted and may be of any length.
const (
	maxFieldTokens = 400 // words kept of one field
	maxTokenBytes  = 40  // a longer word is cut
)

// words splits s into lower-case words: on anything not a letter or a
// digit, between a lower-case and an upper-case letter (camelCase),
// before the last capital of a run followed by a lower-case letter
// (HTMLParser), and between letters and digits. At most max words.
func words(s string, max int) []string {
	var out []string
	start := -1
	var prev rune
	emit := func(end int) {
		if start >= 0 && end > start && len(out) < max {
			w := strings.ToLower(s[start:end])
			if len(w) > maxTokenBytes {
				n := maxTokenBytes
				for n > 0 && !utf8.RuneStart(w[n]) {
					n-- // cut at a character's start
				}
				w = w[:n]
			}
			out = append(out, w)
		}
		start = -1
	}
	for i, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			emit(i)
			prev = 0
			continue
		}
		if start >= 0 && boundary(prev, r, s[i+utf8.RuneLen(r):]) {
			emit(i)
		}
		if start < 0 {
			start = i
		}
		prev = r
	}
	emit(len(s))
	return out
}

// boundary reports whether a word ends between prev and r, given what
// follows r.
func boundary(prev, r rune, rest string) bool {
	switch {
	case unicode.IsDigit(prev) != unicode.IsDigit(r):
		return true
	case unicode.IsLower(prev) && unicode.IsUpper(r):
		return true
	case unicode.IsUpper(prev) && unicode.IsUpper(r):
		next, _ := utf8.DecodeRuneInString(rest)
		return unicode.IsLower(next)
	}
	return false
}

// terms are the index terms of a text: its words less the stopwords,
// stemmed, and a concept term for each phrase that stands for one word
// ("pull request" also gives "pr").
func terms(s string) []string {
	return termsOf(words(s, maxFieldTokens), false)
}

// termsOf makes ws terms. With negate, which a request's words are, the
// word a negation governs is dropped: "archive it without deleting it"
// does not ask to delete.
func termsOf(ws []string, negate bool) []string {
	out := ws[:0]
	negated := false
	for i, w := range ws {
		if negators[w] || contractions[w] && i+1 < len(ws) && ws[i+1] == "t" {
			negated = negate
			continue
		}
		if stopwords[w] {
			continue
		}
		if negated {
			negated = false
			continue
		}
		out = append(out, stem(w))
	}
	n := len(out)
	for i := 0; i < n; i++ {
		// A phrasal verb's particle may come after its object: "take
		// Sam off", "kick Dana out of the team".
		for j := i + 1; j < min(n, i+1+phraseSpan); j++ {
			if t, ok := phrases[[2]string{out[i], out[j]}]; ok && (j == i+1 || separable[t]) {
				out = append(out, t)
				break
			}
		}
	}
	return out
}

// phraseSpan is how far apart the words of a phrase may be.
const phraseSpan = 3

// negators are the words that negate the word after them in a request,
// and contractions those that do when a "t" follows (don't, won't): a
// "won" deal is no negation.
var (
	negators     = set(`not no without never except excluding`)
	contractions = set(`don doesn didn isn aren wasn weren won can couldn shouldn wouldn haven hasn`)
)

// stem strips the common English inflections so that a word and its
// plural, its -ing, -ed and -er forms meet: "repositories" and
// "repository" both give "repository", "creating", "created" and
// "create" give "creat". It is deliberately light: both sides of a match
// go through it, so it need only be consistent, and short words (names,
// acronyms) are left alone.
func stem(w string) string {
	if len(w) == 3 && w[2] == 's' && abbreviations[w[:2]] {
		return w[:2] // dbs, prs, vms
	}
	if len(w) <= 3 || !isLetters(w) {
		return w
	}
	base := dropInflection(dropPlural(w))
	if strings.HasSuffix(base, "e") && len(base) > 3 {
		base = base[:len(base)-1]
	}
	if base != w && (strings.HasSuffix(base, "is") || strings.HasSuffix(base, "ys")) {
		base = base[:len(base)-1] + "z" // organise, analysed: the -ize spelling
	}
	return dropNominal(base)
}

// dropNominal makes the noun of an action meet its verb: creation and
// create, deletion and delete, connection and connect. Not a reaction,
// which is an emoji's, and not the short words (station, version).
func dropNominal(w string) string {
	if len(w) >= 8 && w != "reaction" && (strings.HasSuffix(w, "tion") || strings.HasSuffix(w, "sion")) {
		return w[:len(w)-3]
	}
	return w
}

// abbreviations are the two-letter words of tool use whose plural is
// the word and an s.
var abbreviations = set(`db pr mr vm id ip ci os ui op pc kb qa`)

// dropPlural makes a plural singular: -ies, -sses, -ches, -shes, -xes, -s.
func dropPlural(w string) string {
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "xes"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		return w[:len(w)-1]
	}
	return w
}

// dropInflection takes -ing, -ed and -er off a word long enough to keep
// a stem, and makes -ied a y (copied, modified). A six-letter -er word
// is more often a thing than a doer: a viewer is no view, a worker no
// work.
func dropInflection(w string) string {
	if strings.HasSuffix(w, "ied") && len(w) >= 5 {
		return w[:len(w)-3] + "y"
	}
	for _, suf := range [...]struct {
		s   string
		min int
	}{{"ing", 6}, {"ed", 5}, {"er", 7}} {
		if strings.HasSuffix(w, suf.s) && len(w) >= suf.min {
			return undouble(w[:len(w)-len(suf.s)])
		}
	}
	return w
}

// undouble drops the second of two equal final consonants (stopp → stop).
func undouble(w string) string {
	n := len(w)
	if n >= 3 && w[n-1] == w[n-2] && !strings.ContainsRune("aeiousl", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
}

func isLetters(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return true
}

// stopwords are the words of a request that say nothing about the tool
// wanted.
var stopwords = set(`a an the to of for in on at by with from into onto about as and or but
	is am are was were be been being it its this that these those there here then than
	i me my we us our you your he she they them their his her
	do does did can could would should will shall may might must
	please want need like let lets just some any also very so such more most
	what which whom whose when where why how if else
	via using use help helps thanks thank hey hi hello ok okay kindly quickly maybe actually really
	somehow something anything
	s t d ll ve re`)

func set(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}
