package mcpjson

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/plainmcp/plainmcp/secret"
)

// Disclosure is what a person must see before approving the server, as
// MCP's security best practices ask of a client before it starts a local
// server: the exact command and every argument, whole, never cut short
// and never redacted by guess. String, made for logs, hides what looks
// like a credential and so may hide what matters (a URL's query, the
// rest of a bash -c script after a flag named like a token); Disclosure
// hides only what is secret by its kind: the values of env entries and
// headers, whose names it shows, and a URL's user info.
//
// It is several lines, one fact each, without a trailing newline. The
// command line is written as a POSIX shell would read it back: each word
// bare, in single quotes, or, when it holds anything a terminal acts on
// or a person cannot see (ESC, CR, newlines, bidirectional controls,
// invisible format characters, bytes not UTF-8), in bash's $'…' with
// escapes. So no control character reaches a terminal raw, every word
// stays on its line, and a copy pasted into bash runs exactly what the
// server would (a field that held a ${NAME} reference is shown as written,
// and a line names every variable the entry reads, header values' too).
func (s *ServerConfig) Disclosure() string {
	var lines []string
	add := func(format string, args ...any) { lines = append(lines, fmt.Sprintf(format, args...)) }
	if s.Transport() == "stdio" {
		words := []string{shellWord(s.shown("command", s.Command))}
		for i, a := range s.Args {
			words = append(words, shellWord(s.shown("args["+strconv.Itoa(i)+"]", a)))
		}
		add("runs: %s", strings.Join(words, " "))
		if s.Cwd != "" {
			add("in the directory: %s", shellWord(s.shown("cwd", s.Cwd)))
		}
		if len(s.Env) > 0 {
			add("with the environment variables: %s (values not shown)%s", strings.Join(sortedNames(s.Env), ", "), loaderNote(s.Env))
		}
		if s.SafeEnv {
			add("inherits: only a small safe set of this program's environment variables (inheritEnv: false)")
		} else {
			add("inherits: every variable of this program's environment")
		}
	} else {
		add("connects to: %s (%s)", discloseURL(s.shown("url", s.URL)), s.Transport())
		if len(s.Headers) > 0 {
			add("with the headers: %s (values not shown)", strings.Join(sortedNames(s.Headers), ", "))
		}
		if !s.HeadersHelper.IsZero() {
			add("runs at each connection, for headers (headersHelper): %s", shellWords(strings.Fields(s.HeadersHelper.Reveal())))
		}
		if o := s.OAuth; o != nil && o.AuthServerMetadataURL != "" {
			add("reads its authorization server's metadata from: %s", discloseURL(o.AuthServerMetadataURL))
		}
	}
	if vars := s.variables(); len(vars) > 0 {
		add("reads the environment variables: %s (a ${NAME} shown stands for one; their values go where the file puts them)", strings.Join(vars, ", "))
	}
	return strings.Join(lines, "\n")
}

// loaderVars are environment variables whose value changes the code a
// program runs (a library preloaded, a module required first, where
// programs are looked for): a config that sets one can run code of its
// own whatever its command is.
var loaderVars = []string{
	"BASH_ENV", "DYLD_INSERT_LIBRARIES", "DYLD_LIBRARY_PATH", "ENV", "JAVA_TOOL_OPTIONS",
	"LD_LIBRARY_PATH", "LD_PRELOAD", "NODE_OPTIONS", "NODE_PATH", "PATH", "PERL5LIB", "PERL5OPT",
	"PYTHONPATH", "PYTHONSTARTUP", "RUBYOPT",
}

// loaderNote names the env entries among loaderVars, for the person to
// read their values in the file.
func loaderNote(env map[string]secret.String) string {
	var found []string
	for name := range env {
		if slices.Contains(loaderVars, strings.ToUpper(name)) {
			found = append(found, name)
		}
	}
	if len(found) == 0 {
		return ""
	}
	slices.Sort(found)
	return "; " + strings.Join(found, ", ") + " can change the code that runs: read the value in the file"
}

// discloseURL is a URL as a person approving it sees it: whole, query
// and fragment included, but for its user info, which is credentials by
// kind (and the classic way to make https://good.example@evil.example
// read as good.example), and made printable as shellWord makes a word.
func discloseURL(u string) string {
	hidden := false
	if scheme, rest, ok := strings.Cut(u, "://"); ok {
		end := strings.IndexAny(rest, "/?#")
		if end < 0 {
			end = len(rest)
		}
		if at := strings.LastIndexByte(rest[:end], '@'); at >= 0 {
			u, hidden = scheme+"://X"+rest[at:], true
		}
	}
	if strings.IndexFunc(u, func(r rune) bool { return !visible(r) }) >= 0 || !utf8.ValidString(u) {
		u = shellWord(u)
	}
	if hidden {
		u = strings.Replace(u, "://X@", "://[user info not shown]@", 1)
	}
	return u
}

// shellWords is words as shellWord writes each, joined by spaces.
func shellWords(words []string) string {
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = shellWord(w)
	}
	return strings.Join(quoted, " ")
}

// shellWord is s as one word that a POSIX shell reads back as s: bare when
// it is made of characters no shell treats specially, in single quotes
// when it is printable, and in bash's (and zsh's, ksh's) ANSI-C quotes,
// $'…', when it holds a character a person cannot see or a terminal acts
// on, each written as an escape.
func shellWord(s string) string {
	if s == "" {
		return "''"
	}
	if strings.IndexFunc(s, func(r rune) bool { return !bareRune(r) }) < 0 {
		return s
	}
	if strings.IndexFunc(s, func(r rune) bool { return !visible(r) && r != ' ' }) < 0 && utf8.ValidString(s) {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return ansiCQuote(s)
}

// ansiCQuote is s in bash's $'…', every character that is not visible
// (but the space) written as an escape.
func ansiCQuote(s string) string {
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\\' || r == '\'':
			b.WriteString(`\` + string(r))
		case r == ' ' || visible(r):
			b.WriteString(s[i : i+n])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r <= 0xffff:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
		i += n
	}
	b.WriteString("'")
	return b.String()
}

// bareRune reports whether r needs no quoting in a shell word.
func bareRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_@%+=:,./-", r)
}

// visible reports whether r is shown as itself: a letter, mark, number,
// punctuation or symbol. Spaces other than ASCII's, control characters and
// format characters (bidirectional controls, zero-width ones) are not.
func visible(r rune) bool {
	return r != ' ' && unicode.IsPrint(r)
}
