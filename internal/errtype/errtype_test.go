package errtype

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"testing"
)

type codeError struct{ code int }

func (e *codeError) Error() string { return fmt.Sprint("code ", e.code) }

// asker claims to be a *codeError through its own As method.
type asker struct{}

func (asker) Error() string { return "asker" }
func (asker) As(target any) bool {
	if p, ok := target.(**codeError); ok {
		*p = &codeError{code: 99}
		return true
	}
	return false
}

// TestAsAgreesWithErrors checks As against errors.As on the shapes an
// error tree takes: plain, wrapped, joined, nested, with an As method,
// with nil inside, and without a match.
func TestAsAgreesWithErrors(t *testing.T) {
	first, second := &codeError{1}, &codeError{2}
	pathErr := &fs.PathError{Op: "open", Path: "x", Err: os.ErrNotExist}
	for _, tc := range []struct {
		name string
		err  error
	}{
		{"nil", nil},
		{"the error itself", first},
		{"wrapped twice", fmt.Errorf("b: %w", fmt.Errorf("a: %w", first))},
		{"joined: the first in order", errors.Join(errors.New("x"), first, second)},
		{"joined inside wrapped", fmt.Errorf("c: %w", errors.Join(pathErr, fmt.Errorf("d: %w", second)))},
		{"several %w", fmt.Errorf("%w and %w", pathErr, first)},
		{"an As method", fmt.Errorf("e: %w", asker{})},
		{"no match", fmt.Errorf("f: %w", pathErr)},
		{"joined with nil", errors.Join(nil, errors.New("y"))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var want, got *codeError
			wantOK := errors.As(tc.err, &want)
			gotOK := As(tc.err, &got)
			if gotOK != wantOK || fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("As = %v, %v; errors.As = %v, %v", gotOK, got, wantOK, want)
			}
			var wantPath, gotPath *fs.PathError
			if As(tc.err, &gotPath) != errors.As(tc.err, &wantPath) || gotPath != wantPath {
				t.Errorf("As for *fs.PathError = %v; errors.As = %v", gotPath, wantPath)
			}
		})
	}
}
