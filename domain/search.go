package domain

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Search across the reference banks (issue 28): the one rule that turns a
// description, or what an estimator types, into words. Both stores index
// the words SearchWords gives (bbolt in its search bucket, PostgreSQL in a
// column filled at import), and both match a query's terms against them as
// SearchTerm says, so the two engines find the same items.

// Limits of a search query.
const (
	// MaxSearchQuery is the longest query accepted, in characters.
	MaxSearchQuery = 200
	// MaxSearchTerms is the most words a query may hold (after the words
	// that are not searched for are dropped).
	MaxSearchTerms = 12
	// searchPrefixLen is the shortest word of letters matched as a prefix.
	searchPrefixLen = 3
)

// searchStopWords are the Portuguese words too common to search for:
// articles, prepositions and conjunctions. They are dropped from
// descriptions and queries alike, as every single letter is ("14 X 19"
// is the words 14 and 19).
var searchStopWords = map[string]bool{
	"DE": true, "DA": true, "DO": true, "DAS": true, "DOS": true, "EM": true, "NA": true, "NO": true,
	"NAS": true, "NOS": true, "COM": true, "SEM": true, "PARA": true, "POR": true, "AO": true, "AOS": true,
	"AS": true, "OS": true, "OU": true, "UM": true, "UMA": true,
}

// SearchWords returns the words of s as the search indexes them, in order
// and without repeats: s as IndexName normalises it (accents removed,
// upper case), cut into runs of letters and runs of digits ("14x19cm" is
// 14, X, 19, CM; "1/2" is 1, 2), without single letters and the stop
// words.
func SearchWords(s string) []string {
	n := IndexName(s)
	var out []string
	seen := map[string]bool{}
	start, class := -1, 0
	emit := func(end int) {
		if start < 0 {
			return
		}
		w := n[start:end]
		start = -1
		if class == 1 && (utf8.RuneCountInString(w) < 2 || searchStopWords[w]) {
			return
		}
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	for i, r := range n {
		c := 0
		switch {
		case unicode.IsLetter(r):
			c = 1
		case unicode.IsDigit(r):
			c = 2
		}
		if c != class || c == 0 {
			emit(i)
		}
		if c != 0 && start < 0 {
			start = i
		}
		class = c
	}
	emit(len(n))
	return out
}

// SearchTerm is one word of a query. A word of at least three letters
// matches every word it begins (BLOCO finds BLOCOS, CERAMIC finds
// CERAMICO); a shorter one, and a number, only the same word (14 does not
// find 140).
type SearchTerm struct {
	Word   string
	Prefix bool
}

// Matches reports whether the term matches the indexed word w.
func (t SearchTerm) Matches(w string) bool {
	if t.Prefix {
		return strings.HasPrefix(w, t.Word)
	}
	return w == t.Word
}

// SearchQuery is a parsed search: its terms, in the order typed.
type SearchQuery struct {
	Terms []SearchTerm
}

// ParseSearch reads what was typed: EINVALID naming field (the query
// parameter) when it is empty, longer than MaxSearchQuery characters,
// holds no word that is searched for or more than MaxSearchTerms.
func ParseSearch(field, q string) (SearchQuery, error) {
	q = strings.TrimSpace(q)
	switch {
	case q == "":
		return SearchQuery{}, FieldErrorf(field, "must hold the words to search for")
	case utf8.RuneCountInString(q) > MaxSearchQuery:
		return SearchQuery{}, FieldErrorf(field, "must be at most %d characters", MaxSearchQuery)
	}
	words := SearchWords(q)
	switch {
	case len(words) == 0:
		return SearchQuery{}, FieldErrorf(field, "holds no word to search for (single letters and words such as DE, COM, PARA are not searched)")
	case len(words) > MaxSearchTerms:
		return SearchQuery{}, FieldErrorf(field, "must hold at most %d words", MaxSearchTerms)
	}
	out := SearchQuery{Terms: make([]SearchTerm, len(words))}
	for i, w := range words {
		out.Terms[i] = SearchTerm{Word: w, Prefix: isLetters(w) && utf8.RuneCountInString(w) >= searchPrefixLen}
	}
	return out, nil
}

func isLetters(w string) bool {
	for _, r := range w {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

// Matched returns how many of the query's terms match a word of words.
func (q SearchQuery) Matched(words []string) int {
	n := 0
	for _, t := range q.Terms {
		for _, w := range words {
			if t.Matches(w) {
				n++
				break
			}
		}
	}
	return n
}

// SearchHit is one item a search found, where the stores rank it.
type SearchHit struct {
	Edition *Edition
	Kind    ItemKind
	Code    string
	// Description and Unit are the item's (a store fills them for the
	// hits it answers, not for those it only ranks).
	Description, Unit string
	// Matched is how many of the query's terms the description matches;
	// Length its length in characters.
	Matched int
	Length  int
}

// SearchLength is a description's length as the ranking counts it: its
// characters.
func SearchLength(description string) int { return utf8.RuneCountInString(description) }

// SearchBefore is the order of a search's answer: the hits matching more
// terms first (every term, then most), then the shorter descriptions, then
// by code, kind (compositions first), bank, state, the newer month first,
// and region, so that the order is total.
func SearchBefore(a, b *SearchHit) bool {
	switch {
	case a.Matched != b.Matched:
		return a.Matched > b.Matched
	case a.Length != b.Length:
		return a.Length < b.Length
	case a.Code != b.Code:
		return a.Code < b.Code
	case a.Kind != b.Kind:
		return a.Kind < b.Kind
	case a.Edition.Bank != b.Edition.Bank:
		return a.Edition.Bank < b.Edition.Bank
	case a.Edition.State != b.Edition.State:
		return a.Edition.State < b.Edition.State
	}
	am, bm := SearchMonth(a.Edition.Month), SearchMonth(b.Edition.Month)
	if am != bm {
		return am > bm
	}
	return a.Edition.Region < b.Edition.Region
}

// SearchMonth is a month "MM/YYYY" as "YYYY-MM", which sorts as time does.
func SearchMonth(m string) string {
	if !ValidMonth(m) {
		return m
	}
	return m[3:] + "-" + m[:2]
}
