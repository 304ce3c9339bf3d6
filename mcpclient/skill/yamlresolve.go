package skill

import (
	"encoding/json"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// resolvePlain gives a plain scalar its type by YAML 1.2's core schema:
// null (empty, ~, null), a boolean (true, false; capitalized or in capitals
// too), an integer (decimal, 0o octal, 0x hexadecimal) or a float, as a
// json.Number in JSON's own form; anything else is a string. An infinity
// or NaN, which JSON cannot carry, is an error. A scalar over several lines
// (oneLine false) is always a string or null.
func resolvePlain(s string, oneLine bool, fail func(string) error) (any, error) {
	switch s {
	case "", "~", "null", "Null", "NULL":
		return nil, nil
	case "true", "True", "TRUE":
		return true, nil
	case "false", "False", "FALSE":
		return false, nil
	}
	if !oneLine || len(s) > maxNumberLen {
		return s, nil
	}
	return resolveNumber(s, fail)
}

// resolveNumber is resolvePlain for a one-line scalar that is not null or
// a boolean: a json.Number if it is a number, the string itself if not.
func resolveNumber(s string, fail func(string) error) (any, error) {
	unsigned := s
	if s[0] == '+' || s[0] == '-' {
		unsigned = s[1:]
	}
	switch {
	case nonFinite(s, unsigned):
		return nil, fail("infinity and NaN have no JSON form")
	case isDigits(unsigned, 10):
		return integer(strings.TrimPrefix(s, "+"), 10), nil
	case strings.HasPrefix(s, "0o") && isDigits(s[2:], 8):
		return integer(s[2:], 8), nil
	case strings.HasPrefix(s, "0x") && isDigits(s[2:], 16):
		return integer(s[2:], 16), nil
	case isYAMLFloat(s):
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsInf(f, 0) {
			return nil, fail("a number out of range")
		}
		return json.Number(strconv.FormatFloat(f, 'g', -1, 64)), nil
	}
	return s, nil
}

// nonFinite reports whether s (unsigned without its sign) is the core
// schema's infinity or NaN.
func nonFinite(s, unsigned string) bool {
	switch unsigned {
	case ".inf", ".Inf", ".INF":
		return true
	}
	switch s {
	case ".nan", ".NaN", ".NAN":
		return true
	}
	return false
}

// integer is the digits of base in s as a JSON number, in decimal.
func integer(digits string, base int) json.Number {
	var n big.Int
	n.SetString(digits, base)
	return json.Number(n.String())
}

// maxNumberLen bounds the plain scalars read as numbers: a longer run of
// digits stays a string (and a listing that says otherwise disagrees).
const maxNumberLen = 1000

// isDigits reports whether s is one or more digits of base (8, 10 or 16).
func isDigits(s string, base int) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		ok := '0' <= c && c <= '7' ||
			base >= 10 && (c == '8' || c == '9') ||
			base == 16 && ('a' <= c && c <= 'f' || 'A' <= c && c <= 'F')
		if !ok {
			return false
		}
	}
	return true
}

// isYAMLFloat reports whether s matches the core schema's float:
// [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
func isYAMLFloat(s string) bool {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+")
	mant, exp, hasExp := strings.Cut(strings.ToLower(s), "e")
	whole, frac, hasDot := strings.Cut(mant, ".")
	switch {
	case !hasDot && !isDigits(whole, 10):
		return false
	case hasDot && whole == "" && !isDigits(frac, 10):
		return false
	case hasDot && whole != "" && (!isDigits(whole, 10) || frac != "" && !isDigits(frac, 10)):
		return false
	}
	if hasExp {
		exp = strings.TrimPrefix(strings.TrimPrefix(exp, "-"), "+")
		return isDigits(exp, 10)
	}
	return true
}
