// Package errtype is errors.As without reflection, for the packages a
// stdio-only program links (jsonrpc, transport, mcpclient and what they
// import).
//
// errors.As takes its target as an any and checks it with
// internal/reflectlite, which a program then links, about 24 KB of a
// stripped binary (make size measures it). A type parameter knows the
// target's type at compile time, so a type assertion does the same work.
// Go 1.26's errors.AsType is this function; it replaces this package once
// go.mod requires Go 1.26.
package errtype

// As reports whether any error in err's tree is a T, as errors.As does,
// and if so sets *target to the first one found, in the same pre-order,
// depth-first walk: err itself, then what Unwrap() error or
// Unwrap() []error returns. An error's own As(any) bool method is asked
// too, with target, as errors.As would.
func As[T error](err error, target *T) bool {
	for err != nil {
		if t, ok := err.(T); ok {
			*target = t
			return true
		}
		if x, ok := err.(interface{ As(any) bool }); ok && x.As(target) {
			return true
		}
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			err = u.Unwrap()
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				if As(e, target) {
					return true
				}
			}
			return false
		default:
			return false
		}
	}
	return false
}
