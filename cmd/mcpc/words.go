package main

import (
	"errors"
	"strings"
)

// splitWords splits a command line into words the way a POSIX shell would
// for plain words, single and double quotes and backslash escapes — and
// nothing more: no variables, globs or pipes. The words are then run
// directly, never by a shell.
func splitWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return nil, errors.New("unterminated single quote")
			}
			cur.WriteString(s[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case c == '"':
			end, err := doubleQuoted(&cur, s, i+1)
			if err != nil {
				return nil, err
			}
			i = end
			inWord = true
		case c == '\\':
			if i+1 >= len(s) {
				return nil, errors.New("trailing backslash")
			}
			i++
			cur.WriteByte(s[i])
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// doubleQuoted copies the double-quoted text that starts at s[i] to cur,
// as a shell does (a backslash escapes only ", \, $ and `), and returns
// the index of the closing quote.
func doubleQuoted(cur *strings.Builder, s string, i int) (int, error) {
	for ; i < len(s) && s[i] != '"'; i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte(`"\$`+"`", s[i+1]) >= 0 {
			i++
		}
		cur.WriteByte(s[i])
	}
	if i >= len(s) {
		return 0, errors.New("unterminated double quote")
	}
	return i, nil
}
